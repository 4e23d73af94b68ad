/* dot_mutex.cu: Part 4, Example 4.6, a dot product finished on the GPU under a mutex.
 * Each block computes its share of a . b with chapter 2's tree; then the block's sum must reach one
 * result. dot_partial leaves it to the host (chapter 2's way); dot_mutex lets thread 0 of each block add
 * it to the result under a lock; dot_atomic uses atomicAdd on a float, which GPUs have had since
 * compute capability 2.0. The published version had two faults, corrected here: the mutex was never
 * initialised (cudaMalloc'd memory holds anything; a 1 left there deadlocks), and the tree read
 * s_block[tid + 1] instead of s_block[tid + i].
 *   make ch4 && ./ch4_atomics_mutex/dot_mutex            (N = 10,000,000; a = 1, b = 1/N: the answer is 1)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. The
 * article launched ARTICLE_BLOCKS = 32 x 20 blocks, 32 per SM of its 20-SM card. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8, ARTICLE_BLOCKS = 32 * 20 };

/* ==== Kernels ==== */

/* Example 4.5's lock, copied from mutex.cu (tests/copies.t keeps them equal). */
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

/* The block's share of the dot product, by a grid-stride loop and a tree; every thread gets the sum. */
__device__ float block_dot(const float *a, const float *b, long long n)
{
    __shared__ float s_block[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    float s = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        s += a[i] * b[i];
    s_block[tid] = s;
    __syncthreads();
    for (int i = THREADS_PER_BLOCK / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];  /* tid + i: the published code's tid + 1 was wrong */
        __syncthreads();
    }
    return s_block[0];
}

__global__ void dot_partial(const float *a, const float *b, long long n, float *partial_sums)
{
    float s = block_dot(a, b, n);
    if (threadIdx.x == 0)
        partial_sums[blockIdx.x] = s;
}

__global__ void dot_mutex(const float *a, const float *b, long long n, float *result, int *mutex)
{
    float s = block_dot(a, b, n);
    if (threadIdx.x == 0) {  /* one lock taker per block (mutex.cu says why) */
        lock(mutex);
        result[0] += s;
        unlock(mutex);
    }
}

__global__ void dot_atomic(const float *a, const float *b, long long n, float *result)
{
    float s = block_dot(a, b, n);
    if (threadIdx.x == 0)
        atomicAdd(result, s);
}

/* ==== Host helpers ==== */

enum version { PARTIAL, MUTEX, ATOMIC, VERSIONS };
static const char *names[VERSIONS] = {"dot_partial (host adds)", "dot_mutex", "dot_atomic (atomicAdd float)"};
static const char *keys[VERSIONS] = {"dot_partial", "dot_mutex", "dot_atomic"};  /* and the blocks: dot_mutex_640 */

/* Queues one dot product on stream 0, result zeroed (and the mutex freed) first. */
static void queue_dot(enum version v, int blocks, const float *a, const float *b, long long n, float *partial_sums,
                      float *result, int *mutex)
{
    if (v == PARTIAL) {
        dot_partial<<<blocks, THREADS_PER_BLOCK>>>(a, b, n, partial_sums);
    } else {
        CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(float), 0));
        if (v == MUTEX) {
            CUDA_CHECK(cudaMemsetAsync(mutex, 0, sizeof(int), 0));
            dot_mutex<<<blocks, THREADS_PER_BLOCK>>>(a, b, n, result, mutex);
        } else {
            dot_atomic<<<blocks, THREADS_PER_BLOCK>>>(a, b, n, result);
        }
    }
    CHECK_LAUNCH();
}

static double fetch(enum version v, int blocks, const float *partial_sums, const float *result, float *host_partials)
{
    if (v != PARTIAL) {
        float r = 0.0f;
        CUDA_CHECK(cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost));
        return r;
    }
    CUDA_CHECK(cudaMemcpy(host_partials, partial_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0.0;
    for (int i = 0; i < blocks; i++)
        sum += host_partials[i];
    return sum;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 10000000;
    int reps = 21;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e9, "vector length (default 10000000, the article's)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 4, Example 4.6: a dot product finished under a mutex.", options,
                           COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, 2 * sizeof(float), 2 * sizeof(float), 0);  /* a and b, GPU and host */
    size_t bytes = n * sizeof(float);

    float *a = (float *)host_alloc(bytes), *b = (float *)host_alloc(bytes);
    int grids[2] = {ARTICLE_BLOCKS, BLOCKS_PER_SM * dev.sms};  /* the article's, and 32 per SM of this GPU */
    /* One partial sum per block, for the larger of the two grids: on a GPU with fewer than 20 SMs the
     * article's 640 blocks are the larger. */
    int most_blocks = grids[0] > grids[1] ? grids[0] : grids[1];
    float *host_partials = (float *)host_alloc(most_blocks * sizeof(float));
    double *ms = (double *)host_alloc(reps * sizeof(double)), want = 0.0;
    for (long long i = 0; i < n; i++) {
        a[i] = 1.0f;
        b[i] = 1.0f / (float)n;
        want += (double)a[i] * b[i];  /* 1, up to the rounding of 1/N to float */
    }
    float *dev_a, *dev_b, *dev_partial_sums, *dev_result;
    int *dev_mutex;
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_b, bytes));
    CUDA_CHECK(cudaMalloc(&dev_partial_sums, most_blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev_result, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev_mutex, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dev_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dev_b, b, bytes, cudaMemcpyHostToDevice));

    /* Correct first, each version at both grids. Positive terms: relative error at most (elements per
     * thread + TREE_ADDITIONS + blocks added one after another) x 2^-24. */
    int failures = 0;
    printf("a . b with N = %lld, a = 1, b = 1/N; CPU (double): %.9f\n", n, want);
    for (int g = 0; g < COUNT_OF(grids); g++)
        for (int v = 0; v < VERSIONS; v++) {
            queue_dot((enum version)v, grids[g], dev_a, dev_b, n, dev_partial_sums, dev_result, dev_mutex);
            double got = fetch((enum version)v, grids[g], dev_partial_sums, dev_result, host_partials);
            long long threads = (long long)grids[g] * THREADS_PER_BLOCK;
            double tolerance = (ceil_div(n, threads) + TREE_ADDITIONS + grids[g]) * FLOAT_ROUNDING;
            failures += check(relative_error(got, want) <= tolerance, "%s, %d blocks: %.9f, relative error %.1e <= "
                              "%.1e", names[v], grids[g], got, relative_error(got, want), tolerance);
        }
    if (failures)
        return 1;

    /* Time: zeroing the result (and freeing the mutex) plus the kernel, between events. */
    printf("\n%d runs each (kernel time including the zeroing; 8 bytes read per element):\n", reps);
    for (int g = 0; g < COUNT_OF(grids); g++) {
        printf("%d blocks (%s):\n", grids[g], g == 0 ? "the article's 32 x 20" : "32 x SMs");
        for (int v = 0; v < VERSIONS; v++) {
            struct timed_runs runs = timed_runs(ms, reps, 0);
            while (timed_run(&runs))
                queue_dot((enum version)v, grids[g], dev_a, dev_b, n, dev_partial_sums, dev_result, dev_mutex);
            char label[64], key[64];
            snprintf(label, sizeof label, "%s, %d blocks", names[v], grids[g]);
            snprintf(key, sizeof key, "%s_%d", keys[v], grids[g]);
            print_time(key, label, stats_of(ms, reps));
            printf("  %6.0f GB/s\n", 2.0 * bytes / (stats_of(ms, reps).median * 1e-3) / 1e9);
        }
    }
    printf("\nThe mutex serialises the blocks' final additions: each lock hand-over crosses the chip, so its\n"
           "cost grows with the number of lock takers. atomicAdd does the same addition in the L2 cache.\n");

    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFree(dev_partial_sums));
    CUDA_CHECK(cudaFree(dev_result));
    CUDA_CHECK(cudaFree(dev_mutex));
    free(a);
    free(b);
    free(host_partials);
    free(ms);
    return exit_status(0);
}
