/* ladder.cu: going further, the reductions of this chapter side by side over sizes from 1e4 to 1e9.
 * The kernels are those of naive.cu (Example 2.1), better.cu (2.2) and warp_shuffle.cu, repeated here
 * so that this file stands alone, and CUB's DeviceReduce::Sum (2.3). Each is timed by events, kernel
 * alone, with the L2 cache flushed before every timed run, so that small sizes measure DRAM, not the cache.
 *   make ch2 && ./ch2_reduction/ladder                      (writes output/ch2/ladder.csv; make figures)
 *   ./ch2_reduction/ladder --max 1e8 -r 5
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_reduce.cuh>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* The tree kernels' blocks hold 1024 threads, the shuffle kernel's 512. Inside its block an element
 * goes through 1023 additions in naive's, TREE_ADDITIONS in better's, SHUFFLE_ADDITIONS in
 * warp_shuffle's and about CUB_TREE_ADDITIONS in CUB's (library.cu says why). */
enum { THREADS_PER_BLOCK = 1024, SHUFFLE_THREADS = 512, WARP = 32 };
enum { TREE_ADDITIONS = 10, SHUFFLE_ADDITIONS = 10, CUB_TREE_ADDITIONS = 20 };

/* ==== Kernels: copies of naive.cu, better.cu and warp_shuffle.cu (tests/copies.t keeps them equal) ==== */

/* naive.cu: thread 0 adds the block's values in sequence. */
__global__ void __launch_bounds__(THREADS_PER_BLOCK) reduce_naive(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS_PER_BLOCK];  /* one per block, seen by all its threads */
    int tid = threadIdx.x;
    long long threads_per_grid = (long long)blockDim.x * gridDim.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += threads_per_grid)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();  /* thread 0 must not read s_block before every thread has written its value */
    if (tid == 0) {   /* one thread does all the block's additions: 1023 of them, in sequence */
        for (int i = 1; i < THREADS_PER_BLOCK; i++)
            s_block[0] += s_block[i];
        partial_sums[blockIdx.x] = s_block[0];
    }
}

/* better.cu: a tree in shared memory. */
__global__ void __launch_bounds__(THREADS_PER_BLOCK) reduce_better(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    long long threads_per_grid = (long long)blockDim.x * gridDim.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += threads_per_grid)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();

    /* The tree, with sequential addressing: in each step thread tid adds the value i places above it,
     * so the active threads and the values they read are contiguous (no bank conflicts, whole warps
     * retire together). 1024 -> 512 -> ... -> 1. */
    for (int i = THREADS_PER_BLOCK / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        /* The article's warning: __syncthreads() belongs here, outside the if. Inside it, only the
         * threads with tid < i would reach the barrier, and a barrier that not every thread of the block
         * reaches is undefined behaviour: a hang, or a read of a value not yet written. */
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x] = s_block[0];
}

/* warp_shuffle.cu: 16-byte loads, warp shuffles, one atomicAdd per block (*sum zeroed before). */
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ float add4(float4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

__global__ void __launch_bounds__(SHUFFLE_THREADS) reduce_warp_shuffle(const float *array, long long n, float *sum)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    long long first = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    const float4 *array4 = (const float4 *)array;  /* cudaMalloc memory is 256-byte aligned */
    long long n4 = n / 4;

    /* One 16-byte load per step. Measured on an H200 at N = 1e9: unrolling this loop to put 2, 4 or 8
     * loads in flight per thread changed nothing (all within 1% of CUB), because there a full wave
     * already keeps 2048 resident threads x 16 bytes = 32 KB of loads in flight on every SM. (A T4's
     * SM holds 1024 threads, so there the unrolled loop may gain: exercise 5 of the README.) */
    float s = 0.0f;
    for (long long i = first; i < n4; i += stride)
        s += add4(array4[i]);
    for (long long j = 4 * n4 + first; j < n; j += stride)  /* the last n % 4 elements */
        s += array[j];

    __shared__ float warp_sums[SHUFFLE_THREADS / WARP];
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    s = warp_sum(s);
    if (lane == 0)
        warp_sums[warp] = s;
    __syncthreads();  /* every warp's sum is in shared memory */
    if (warp == 0) {
        s = lane < SHUFFLE_THREADS / WARP ? warp_sums[lane] : 0.0f;
        s = warp_sum(s);
        if (lane == 0)
            atomicAdd(sum, s);  /* one atomic per block: a few hundred in all, no contention to speak of */
    }
}

/* ==== This program's kernels and host helpers ==== */

/* Reads a buffer twice the L2's size, so that the next kernel finds none of its data in the cache. Reads,
 * not writes: a memset would leave dirty lines that the timed kernel would have to write back. */
__global__ void read_through(const int4 *buffer, long long count, int *sink)
{
    int4 acc = make_int4(0, 0, 0, 0);
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < count;
         i += (long long)blockDim.x * gridDim.x)
        acc.x ^= buffer[i].x ^ buffer[i].y ^ buffer[i].z ^ buffer[i].w;
    if (acc.x == 0x7fffffff)  /* practically never true, but the compiler cannot drop the loads */
        *sink = acc.x;
}

/* Test data made on the GPU: (i mod 1024 + 1) / 1024 is exact in float and its sum is known exactly. */
__global__ void fill(float *array, long long n)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        array[i] = (float)(i % 1024 + 1) / 1024.0f;
}

static double exact_sum(long long n)
{
    long long q = n / 1024, r = n % 1024;
    return (q * (1024.0 * 1025.0 / 2.0) + r * (r + 1) / 2.0) / 1024.0;
}

enum variant { NAIVE, BETTER, SHUFFLE, LIBRARY, VARIANTS };
static const char *names[VARIANTS] = {"naive", "better", "warp_shuffle", "cub"};

struct buffers {
    float *array, *partial_sums, *sum;
    void *temp;
    size_t temp_bytes;
    int tree_blocks, shuffle_blocks;
};

/* Queues one reduction of the first n elements on stream 0; the result ends in b->partial_sums (naive,
 * better) or b->sum (warp_shuffle, CUB). */
static void launch(enum variant v, long long n, struct buffers *b)
{
    switch (v) {
    case NAIVE:
        reduce_naive<<<b->tree_blocks, THREADS_PER_BLOCK>>>(b->array, n, b->partial_sums);
        break;
    case BETTER:
        reduce_better<<<b->tree_blocks, THREADS_PER_BLOCK>>>(b->array, n, b->partial_sums);
        break;
    case SHUFFLE:
        CUDA_CHECK(cudaMemsetAsync(b->sum, 0, sizeof(float), 0));
        reduce_warp_shuffle<<<b->shuffle_blocks, SHUFFLE_THREADS>>>(b->array, n, b->sum);
        break;
    default:
        CUDA_CHECK(cub::DeviceReduce::Sum(b->temp, b->temp_bytes, b->array, b->sum, n));
    }
    CHECK_LAUNCH();
}

static double result(enum variant v, struct buffers *b, float *host_partials)
{
    if (v == NAIVE || v == BETTER) {
        CUDA_CHECK(cudaMemcpy(host_partials, b->partial_sums, b->tree_blocks * sizeof(float), cudaMemcpyDeviceToHost));
        double sum = 0.0;
        for (int i = 0; i < b->tree_blocks; i++)
            sum += host_partials[i];
        return sum;
    }
    float sum = 0.0f;
    CUDA_CHECK(cudaMemcpy(&sum, b->sum, sizeof sum, cudaMemcpyDeviceToHost));
    return sum;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long max_n = 1000000000;
    int reps = 21;
    const char *csv_path = "output/ch2/ladder.csv";
    struct cli_option options[] = {
        {"--max", CLI_SIZE, &max_n, 10000, 4e9, "largest size (default 1e9; less if memory is short)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs per point (default 21)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the sweep to FILE (default output/ch2/ladder.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: the chapter's reductions over sizes 1e4 to 1e9.", options,
                           COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);

    /* The array (4 bytes an element, made on the GPU) and a buffer twice the L2 to flush it. */
    size_t flush_bytes = 2 * dev.l2_bytes;
    max_n = size_to_fit(&dev, "--max", max_n, 1, sizeof(float), 0, flush_bytes);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);  /* the limit, while the array's memory is free */

    struct buffers b;
    memset(&b, 0, sizeof b);
    b.tree_blocks = BLOCKS_PER_SM * dev.sms;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_warp_shuffle, SHUFFLE_THREADS, 0));
    b.shuffle_blocks = per_sm * dev.sms;
    int4 *flush;
    int *sink;
    int flush_blocks = 4 * dev.threads_per_sm / 256 * dev.sms;
    CUDA_CHECK(cudaMalloc(&b.array, max_n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b.partial_sums, b.tree_blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b.sum, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
    CUDA_CHECK(cudaMemset(flush, 0, flush_bytes));
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, b.temp_bytes, b.array, b.sum, max_n));
    CUDA_CHECK(cudaMalloc(&b.temp, b.temp_bytes));
    fill<<<4 * dev.sms, 256>>>(b.array, max_n);
    CHECK_LAUNCH();
    float *host_partials = (float *)host_alloc(b.tree_blocks * sizeof(float));
    double *ms = (double *)host_alloc(reps * sizeof(double));

    /* Sizes 1, 2, 5 per decade from 1e4, and max_n itself, plus odd sizes for the checks only. */
    long long sizes[64];
    int count = 0;
    for (long long decade = 10000; decade <= max_n && count < 60; decade *= 10)
        for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3))
            if (m * decade <= max_n)
                sizes[count++] = m * decade;
    if (sizes[count - 1] != max_n)
        sizes[count++] = max_n;

    /* Correct first: every variant at 1, 1023, 1025, a prime and each ladder size. Float tolerances as
     * in the single programs: (additions an element goes through) x 2^-24, for positive terms. */
    long long resident = (long long)dev.sms * dev.threads_per_sm;
    long long tree_threads = (long long)b.tree_blocks * THREADS_PER_BLOCK;
    long long shuffle_threads = (long long)b.shuffle_blocks * SHUFFLE_THREADS;
    long long odd[] = {1, 1023, 1025, 1000003};
    int failures = 0, checks = 0, odd_count = COUNT_OF(odd);
    for (int k = 0; k < odd_count + count; k++) {
        long long n = k < odd_count ? odd[k] : sizes[k - odd_count];
        if (n > max_n)
            continue;
        double adds[VARIANTS] = {(double)(ceil_div(n, tree_threads) + THREADS_PER_BLOCK - 1),
                                 (double)(ceil_div(n, tree_threads) + TREE_ADDITIONS),
                                 (double)(ceil_div(n, shuffle_threads) + SHUFFLE_ADDITIONS + b.shuffle_blocks),
                                 (double)(ceil_div(n, resident) + CUB_TREE_ADDITIONS)};
        for (int v = 0; v < VARIANTS; v++) {
            launch((enum variant)v, n, &b);
            double got = result((enum variant)v, &b, host_partials), want = exact_sum(n);
            checks++;
            if (!(relative_error(got, want) <= adds[v] * FLOAT_ROUNDING))  /* only the failures are printed */
                failures += check(0, "%s at N = %lld: %.9g vs exact %.9g", names[v], n, got, want);
        }
    }
    if (check(failures == 0, "%d sums (%d variants, %d sizes from 1 to %lld) within their float bounds", checks,
              VARIANTS, odd_count + count, max_n))
        return 1;

    FILE *csv = csv_open(csv_path, "variant,n,bytes,median_ms,mean_ms,std_ms,gbs");
    printf("\nGB/s (kernel time, cold L2, median of %d); limit: device-to-device copy %.0f GB/s\n", reps, copy_gbs);
    printf("%12s %10s %10s %12s %10s\n", "N", "naive", "better", "warp_shuffle", "cub");
    double at_max[VARIANTS] = {0};
    for (int k = 0; k < count; k++) {
        long long n = sizes[k];
        printf("%12lld", n);
        for (int v = 0; v < VARIANTS; v++) {
            struct timed_runs runs = timed_runs(ms, reps, 0);
            while (timed_run(&runs)) {
                launch((enum variant)v, n, &b);
                timed_run_end(&runs);
                /* Evict the array from L2 by reading a buffer twice its size, outside the timed window:
                 * the next run starts cold. */
                read_through<<<flush_blocks, 256>>>(flush, flush_bytes / 16, sink);
                CHECK_LAUNCH();
            }
            struct stats s = stats_of(ms, reps);
            double gbs = n * sizeof(float) / (s.median * 1e-3) / 1e9;
            csv_row(csv, "%s,%lld,%lld,%.6f,%.6f,%.6f,%.1f", names[v], n, n * 4, s.median, s.mean, s.std, gbs);
            printf(" %*.0f", v == SHUFFLE ? 12 : 10, gbs);
            if (k == count - 1)
                at_max[v] = gbs;
        }
        csv_row(csv, "copy,%lld,%lld,,,,%.1f", n, n * 4, copy_gbs);
        printf("\n");
    }
    csv_close(csv);
    printf("\nat N = %lld: better = %.0f%% of CUB, warp_shuffle = %.1f%% of CUB, CUB = %.0f%% of copy\n",
           max_n, 100 * at_max[BETTER] / at_max[LIBRARY], 100 * at_max[SHUFFLE] / at_max[LIBRARY],
           100 * at_max[LIBRARY] / copy_gbs);
    printf("wrote %s\n", csv_path);

    CUDA_CHECK(cudaFree(b.array));
    CUDA_CHECK(cudaFree(b.partial_sums));
    CUDA_CHECK(cudaFree(b.sum));
    CUDA_CHECK(cudaFree(b.temp));
    CUDA_CHECK(cudaFree(flush));
    CUDA_CHECK(cudaFree(sink));
    free(host_partials);
    free(ms);
    return exit_status(0);
}
