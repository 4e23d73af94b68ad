/* add_one.cu: Part 4, Examples 4.1 and 4.2, a race on one counter, and atomicAdd.
 * Every thread does x[0] = x[0] + 1. Each one reads, adds and writes back, and between its read and
 * its write other threads read the same old value: their increments are lost. atomicAdd does the
 * read-add-write as one indivisible operation, so none is lost.
 *   make ch4 && ./ch4_atomics_mutex/add_one                  (1 x 1, then 10 blocks x 16 threads)
 *   ./ch4_atomics_mutex/add_one --blocks 1000 --threads 256
 *   compute-sanitizer --tool racecheck ./ch4_atomics_mutex/add_one      (finds the shared-memory race)
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"

/* Example 4.1: the race, in global memory. */
__global__ void add_one(int *x)
{
    x[0] = x[0] + 1;
}

/* Example 4.2: the same with an atomic read-add-write. */
__global__ void add_one_atomic(int *x)
{
    atomicAdd(&x[0], 1);
}

/* The same race on a counter in shared memory, one per block, whose count is then added to x once per
 * block. compute-sanitizer's racecheck watches shared memory only, so this is the version it can
 * catch: the global race of add_one is invisible to it (memcheck sees nothing wrong either, since every
 * access is in bounds). */
__global__ void add_one_shared(int *x)
{
    __shared__ int counter;
    if (threadIdx.x == 0)
        counter = 0;
    __syncthreads();
    counter = counter + 1;  /* the race: every thread of the block reads and writes one word */
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&x[0], counter);
}

/* The shared counter made right: atomicAdd works on shared memory too (and is cheaper there). */
__global__ void add_one_shared_atomic(int *x)
{
    __shared__ int counter;
    if (threadIdx.x == 0)
        counter = 0;
    __syncthreads();
    atomicAdd(&counter, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&x[0], counter);
}

enum kernel { PLAIN, ATOMIC, SHARED, SHARED_ATOMIC };

static int run(enum kernel k, int blocks, int threads, int *dev_x)
{
    int x = 0;
    CUDA_CHECK(cudaMemset(dev_x, 0, sizeof(int)));
    switch (k) {
    case PLAIN: add_one<<<blocks, threads>>>(dev_x); break;
    case ATOMIC: add_one_atomic<<<blocks, threads>>>(dev_x); break;
    case SHARED: add_one_shared<<<blocks, threads>>>(dev_x); break;
    case SHARED_ATOMIC: add_one_shared_atomic<<<blocks, threads>>>(dev_x); break;
    }
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&x, dev_x, sizeof x, cudaMemcpyDeviceToHost));
    return x;
}

int main(int argc, char **argv)
{
    int blocks = 10, threads = 16, no_shared_race = 0;
    struct cli_option options[] = {
        {"--blocks", CLI_INT, &blocks, 1, 1e6, "blocks for the second launch (default 10)"},
        {"--threads", CLI_INT, &threads, 1, 1024, "threads per block (default 16)"},
        {"--no-shared-race", CLI_FLAG, &no_shared_race, 0, 0,
         "skip the racy shared-memory kernel (racecheck stays silent)"},
    };
    int device = cli_parse(argc, argv, "Part 4, Examples 4.1-4.2: x[0] += 1 from many threads, racing and atomic.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    int *dev_x;
    CUDA_CHECK(cudaMalloc(&dev_x, sizeof(int)));
    int expected = blocks * threads, failures = 0;

    printf("1 block x 1 thread, x[0] = x[0] + 1:        %d\n", run(PLAIN, 1, 1, dev_x));
    int racy = run(PLAIN, blocks, threads, dev_x);
    printf("%d blocks x %d threads, x[0] = x[0] + 1:    %d (expected %d)\n", blocks, threads, racy, expected);
    printf("  %s\n", racy == expected ? "right this time: a race need not lose updates on every run"
                                      : "increments were lost: threads read the same old value before others wrote");
    int atomic = run(ATOMIC, blocks, threads, dev_x);
    printf("%d blocks x %d threads, atomicAdd(x, 1):     %d\n", blocks, threads, atomic);
    failures += check(atomic == expected, "atomicAdd in global memory counts %d of %d", atomic, expected);

    if (!no_shared_race) {
        int shared = run(SHARED, blocks, threads, dev_x);
        printf("shared counter, counter = counter + 1:      %d (expected %d)\n", shared, expected);
    }
    int shared_atomic = run(SHARED_ATOMIC, blocks, threads, dev_x);
    printf("shared counter, atomicAdd(&counter, 1):     %d\n", shared_atomic);
    failures += check(shared_atomic == expected, "atomicAdd in shared memory counts %d of %d", shared_atomic,
                      expected);
    CUDA_CHECK(cudaFree(dev_x));
    return exit_status(failures);
}
