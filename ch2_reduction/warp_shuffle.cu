/* warp_shuffle.cu: going further than Part 2, what Numba could not show: a single-pass reduction with
 * warp shuffles. Each thread sums a grid-stride share of the array read 16 bytes at a time; the 32
 * threads of a warp then add their values through registers with __shfl_down_sync, one value per warp
 * goes through shared memory, and one thread per block adds the block's sum into the result with
 * atomicAdd. One kernel, no host finish, no partial-sums array.
 *   make ch2 && ./ch2_reduction/warp_shuffle          (N = 1e9 float32)
 *   ./ch2_reduction/warp_shuffle -n 1e8
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 512 threads a block; an element goes through SHUFFLE_ADDITIONS shuffle steps: 5 inside its warp, 5
 * across the block's 16 warp sums. */
enum { SHUFFLE_THREADS = 512, WARP = 32, SHUFFLE_ADDITIONS = 10 };

/* ==== Kernels ==== */

/* Adds v over the 32 lanes of a warp: after 5 steps (16, 8, 4, 2, 1) lane 0 holds the sum. Each step
 * reads the register of the lane `offset` above, with no shared memory and no __syncthreads: the
 * lanes named in the mask (all 32) exchange values in lockstep inside this one instruction.
 *
 * Why not the older trick of unrolling the last warp's steps of the shared-memory tree with a
 * `volatile` array and no barrier? It assumed the 32 threads of a warp run in lockstep. Since Volta
 * (compute capability 7.0) each thread has its own program counter and a warp may diverge and
 * reconverge anywhere, so one lane can read a neighbour's slot before that lane wrote it. The *_sync
 * intrinsics (and __syncwarp) say explicitly which lanes meet; for the same reason CUDA 9.0 deprecated
 * the unsynchronised __shfl, and it does not exist for compute capability 7.0 and newer. */
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

/* *sum must be zero before the launch. */
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

/* ==== CPU reference ==== */

/* The CPU reference: a loop accumulating in double, as in naive.cu (where the reason is given). */
static double cpu_sum(const float *a, long long n)
{
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 1000000000;
    int reps = 21;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 4e9, "number of float32 elements (default 1e9)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Going further: a single-pass reduction with warp shuffles.", options,
                           COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);  /* the limit, while the array's memory is free */

    /* One wave: as many blocks as fit on the GPU at once, each looping over its share. */
    int blocks_per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reduce_warp_shuffle,
                                                             SHUFFLE_THREADS, 0));
    int blocks = blocks_per_sm * dev.sms;
    long long threads = (long long)blocks * SHUFFLE_THREADS;
    printf("N = %lld float32 (%.2f GB), %d blocks (%d per SM x %d SMs) of %d threads, one atomicAdd per block\n",
           n, bytes / 1e9, blocks, blocks_per_sm, dev.sms, SHUFFLE_THREADS);

    float *a = (float *)host_alloc(bytes);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    double scale = 2.0 / ((double)n * (n + 1));  /* the article's scaled arange, from 1 */
    for (long long i = 0; i < n; i++)
        a[i] = (float)((i + 1) * scale);
    float *dev_array, *dev_sum;
    CUDA_CHECK(cudaMalloc(&dev_array, bytes));
    CUDA_CHECK(cudaMalloc(&dev_sum, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dev_array, a, bytes, cudaMemcpyHostToDevice));

    /* Checks at 1, 1023, 1025, a prime and N. An element goes through its thread's additions (at most
     * one per element the thread reads), the shuffle steps, and the atomics, which add the block sums one
     * after another: for positive terms the relative error is at most (elements per thread +
     * SHUFFLE_ADDITIONS + blocks) x 2^-24. */
    enum { CHECKS = 5 };
    long long check_sizes[CHECKS] = {1, 1023, 1025, 1000003, n};
    int failures = 0;
    for (int k = 0; k < CHECKS; k++) {
        long long m = check_sizes[k];
        if (m > n || (k < CHECKS - 1 && m == n))
            continue;
        float got = 0.0f;
        CUDA_CHECK(cudaMemset(dev_sum, 0, sizeof(float)));
        reduce_warp_shuffle<<<blocks, SHUFFLE_THREADS>>>(dev_array, m, dev_sum);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(&got, dev_sum, sizeof got, cudaMemcpyDeviceToHost));
        double want = cpu_sum(a, m);
        double tolerance = (ceil_div(m, threads) + SHUFFLE_ADDITIONS + blocks) * FLOAT_ROUNDING;
        failures += check(relative_error(got, want) <= tolerance, "N = %lld: GPU %.9g, CPU %.9g, relative error "
                          "%.1e <= %.1e", m, got, want, relative_error(got, want), tolerance);
    }
    if (failures)
        return 1;

    /* Time: the zeroing of the result and the kernel, between two events. */
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs)) {
        CUDA_CHECK(cudaMemsetAsync(dev_sum, 0, sizeof(float), 0));
        reduce_warp_shuffle<<<blocks, SHUFFLE_THREADS>>>(dev_array, n, dev_sum);
        CHECK_LAUNCH();
    }
    printf("\n%d runs; limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n", reps,
           copy_gbs);
    print_bandwidth("warp_shuffle", "zero + warp-shuffle kernel", stats_of(ms, reps), bytes, copy_gbs, "of copy");
    printf("./ch2_reduction/ladder compares it with naive, better and CUB over sizes from 1e4 to 1e9.\n");
    if (bytes < dev.l2_bytes)
        printf("note: the array (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", bytes / 1e6);

    CUDA_CHECK(cudaFree(dev_array));
    CUDA_CHECK(cudaFree(dev_sum));
    free(a);
    free(ms);
    return exit_status(0);
}
