/* mutex.cu: Part 4, Example 4.5, a lock built from atomicCAS, guarding a plain x[0] = x[0] + 1.
 * A mutex is one int: 0 free, 1 taken. lock() spins until atomicCAS(mutex, 0, 1) finds it 0 (and so
 * sets it to 1); unlock() puts 0 back with atomicExch. Between the two, one thread at a time runs the
 * critical section, so even a non-atomic update is safe.
 *   make ch4 && ./ch4_atomics_mutex/mutex                    (10 blocks x 16 threads: 160)
 *   ./ch4_atomics_mutex/mutex --blocks 100 --threads 128
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* Every thread of the per-thread version takes the one lock in turn, and each hand-over crosses the
 * chip while the other takers spin on the same address: the time grows faster than the count. 2 million
 * takers (--blocks 2000 --threads 1024) ran for minutes on an H100; MAX_LOCK_TAKERS keeps a run to
 * seconds (README: the measured times). */
enum { MAX_LOCK_TAKERS = 1 << 16 };

__device__ void lock(int *mutex)
{
    while (atomicCAS(mutex, 0, 1) != 0) {
        /* spin: someone else holds it */
    }
    /* Acquire: what the previous holder wrote before its unlock is visible to our reads from here. */
    __threadfence();
}

__device__ void unlock(int *mutex)
{
    /* Release: our writes in the critical section reach the whole device before the lock is seen free.
     * Without this fence the next holder could take the lock and still read the old values. */
    __threadfence();
    atomicExch(mutex, 0);
}

/* The article's version: every thread takes the lock. Before Volta (compute capability 7.0) the 32
 * threads of a warp shared one program counter: if one lane took the lock, the others kept the warp in
 * the spin loop and the holder could never reach unlock, a deadlock. Since Volta each thread has its own
 * program counter and the scheduler lets the holder progress, so this works, slowly: every thread
 * queues for one lock. */
__global__ void add_one_locked_per_thread(int *x, int *mutex)
{
    lock(mutex);
    x[0] = x[0] + 1;
    unlock(mutex);
}

/* The safe pattern on any GPU: one lock taker per block. The block first agrees on its own part (here
 * an atomicAdd in shared memory), then thread 0 alone takes the global lock once for the whole block. */
__global__ void add_one_locked_per_block(int *x, int *mutex)
{
    __shared__ int block_count;
    if (threadIdx.x == 0)
        block_count = 0;
    __syncthreads();
    atomicAdd(&block_count, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        lock(mutex);
        x[0] = x[0] + block_count;
        unlock(mutex);
    }
}

enum version { PER_THREAD, PER_BLOCK, VERSIONS };
static const char *names[VERSIONS] = {"thread", "block"};

/* Runs one version on a zeroed counter and a free lock; returns the count it reached. */
static int run(enum version v, int blocks, int threads, int *dev_x, int *dev_mutex)
{
    int x = 0;
    CUDA_CHECK(cudaMemset(dev_x, 0, sizeof(int)));
    CUDA_CHECK(cudaMemset(dev_mutex, 0, sizeof(int)));  /* the lock starts free: never assume memory is 0 */
    if (v == PER_THREAD)
        add_one_locked_per_thread<<<blocks, threads>>>(dev_x, dev_mutex);
    else
        add_one_locked_per_block<<<blocks, threads>>>(dev_x, dev_mutex);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&x, dev_x, sizeof x, cudaMemcpyDeviceToHost));
    return x;
}

int main(int argc, char **argv)
{
    int blocks = 10, threads = 16;
    struct cli_option options[] = {
        {"--blocks", CLI_INT, &blocks, 1, 1e5, "blocks (default 10)"},
        {"--threads", CLI_INT, &threads, 1, 1024, "threads per block (default 16)"},
    };
    int device = cli_parse(argc, argv, "Part 4, Example 4.5: a compare-and-swap mutex around x[0] += 1.", options,
                           COUNT_OF(options));
    if ((long long)blocks * threads > MAX_LOCK_TAKERS)
        cli_usage_error(argv[0], "--blocks %d x --threads %d = %lld threads taking the lock one after another; at "
                        "most %d (more would run for minutes)", blocks, threads, (long long)blocks * threads,
                        MAX_LOCK_TAKERS);
    struct device_info dev;
    device_start(device, &dev);
    if (dev.major < 7)
        printf("note: compute capability %d.%d has no independent thread scheduling: the per-thread lock "
               "below may deadlock here\n", dev.major, dev.minor);
    int *dev_x, *dev_mutex, failures = 0, expected = blocks * threads;
    CUDA_CHECK(cudaMalloc(&dev_x, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dev_mutex, sizeof(int)));
    /* One run of each version, timed by the wall clock around it, not timed_runs' warm-up and repeats: the
     * time is the lesson's evidence that the takers go one at a time (it grows with their number, and the
     * per-thread lock's runs to seconds), not a rate set against a limit, and each repeat would cost as
     * much again. The count is checked on that same run. */
    for (int v = 0; v < VERSIONS; v++) {
        double start = wall_seconds();
        int x = run((enum version)v, blocks, threads, dev_x, dev_mutex);
        printf("%d blocks x %d threads, lock taken per %-6s: x = %d (%.3f s)\n", blocks, threads, names[v], x,
               wall_seconds() - start);
        failures += check(x == expected, "lock per %s counts %d of %d", names[v], x, expected);
    }
    CUDA_CHECK(cudaFree(dev_x));
    CUDA_CHECK(cudaFree(dev_mutex));
    return exit_status(failures);
}
