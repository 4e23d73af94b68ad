/* naive.cu: Part 2, Example 2.1, a naive parallel reduction: sum a billion floats.
 * Each thread sums a grid-stride slice of the array into a register and puts it in a shared array;
 * after __syncthreads, thread 0 adds the block's 1024 values one by one and writes the block's partial
 * sum to global memory. The host copies the partial sums back and finishes the sum. better.cu
 * (Example 2.2) is this file line for line but for the kernel, BLOCK_ADDITIONS and the words: `diff` the two.
 *   make ch2 && ./ch2_reduction/naive                 (N = 1e9 float32, 4 GB, as in the article)
 *   ./ch2_reduction/naive -n 1e8 -r 11
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* Numba needs a shared array's size when it compiles the kernel. So does a static __shared__ array in
 * CUDA C, like the kernel's below, so the block size is a constant. CUDA C can also size shared memory
 * at launch (dynamic shared memory): declare `extern __shared__ float s_block[];` in the kernel and pass
 * the bytes as the launch's third parameter, kernel<<<blocks, threads, threads * sizeof(float)>>>(...);
 * ch5's sgemm_tensor.cu does, for tiles larger than the 48 KiB a static array may take, which a launch
 * gets only once cudaFuncSetAttribute has allowed the kernel that much (the lab ch2_dynamic_shared). An
 * element goes through BLOCK_ADDITIONS additions inside its block: thread 0's 1023 in a row. */
enum { THREADS_PER_BLOCK = 1024, BLOCK_ADDITIONS = THREADS_PER_BLOCK - 1 };

/* ==== Kernel ==== */

/* __launch_bounds__ tells the compiler the block size, so that it keeps to the registers a block of
 * 1024 threads may use on every GPU (64 a thread on a T4). */
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

/* ==== CPU reference and host helpers ==== */

/* The CPU baseline, also the reference: a plain loop accumulating in double, as Python's float does in
 * the article's sum_cpu. (A float accumulator would stall: past 2^24 times an element, adding one more
 * rounds to nothing.) */
static double cpu_sum(const float *a, long long n)
{
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

/* The whole sum as the article computes it: kernel, copy of the partial sums, host finish (in double). */
static double gpu_sum(const float *dev_array, long long n, int blocks, float *dev_partial_sums,
                      float *partial_sums)
{
    reduce_naive<<<blocks, THREADS_PER_BLOCK>>>(dev_array, n, dev_partial_sums);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(partial_sums, dev_partial_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0.0;
    for (int b = 0; b < blocks; b++)
        sum += partial_sums[b];
    return sum;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 1000000000;
    int reps = 21;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 4e9, "number of float32 elements (default 1e9, the article's)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21, the article's)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 2, Example 2.1: naive reduction, thread 0 sums the block.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);  /* the limit, while the array's memory is free */
    int blocks = BLOCKS_PER_SM * dev.sms;  /* the article's 32 x 80 was 32 blocks per SM of its card */

    /* The article's data: an arange scaled so that the sum is 1 (from 1, so that N = 1 is not 0/0). */
    float *a = (float *)host_alloc(bytes), *partial_sums = (float *)host_alloc(blocks * sizeof(float));
    double scale = 2.0 / ((double)n * (n + 1));
    for (long long i = 0; i < n; i++)
        a[i] = (float)((i + 1) * scale);

    /* The CPU: the references at the check sizes, and the full sum timed by the wall clock. */
    enum { CHECKS = 5, CPU_REPS = 3 };
    long long check_sizes[CHECKS] = {1, 1023, 1025, 1000003, n};
    double want[CHECKS], *ms = (double *)host_alloc((reps > CPU_REPS ? reps : CPU_REPS) * sizeof(double));
    for (int k = 0; k < CHECKS - 1; k++)
        want[k] = cpu_sum(a, check_sizes[k] < n ? check_sizes[k] : n);
    int cpu_reps = reps < CPU_REPS ? reps : CPU_REPS;
    for (int r = 0; r < cpu_reps; r++) {
        double start = wall_seconds();
        want[CHECKS - 1] = cpu_sum(a, n);
        ms[r] = (wall_seconds() - start) * 1e3;
    }
    struct stats cpu = stats_of(ms, cpu_reps);

    float *dev_array, *dev_partial_sums;
    CUDA_CHECK(cudaMalloc(&dev_array, bytes));
    CUDA_CHECK(cudaMalloc(&dev_partial_sums, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dev_array, a, bytes, cudaMemcpyHostToDevice));

    long long threads = (long long)blocks * THREADS_PER_BLOCK;
    printf("\nSumming N = %lld float32 (%.2f GB) that add up to 1, in three stages:\n"
           "  1. each of %d blocks (%d x %d SMs) x %d threads = %lld threads adds about %lld elements,\n"
           "     stepping through the array by %lld (a grid-stride loop), and puts its sum in shared memory;\n"
           "  2. after a __syncthreads(), thread 0 of each block adds the block's %d values one after another:\n"
           "     %d additions in a row while the other %d threads wait (better.cu adds them as a tree);\n"
           "  3. the host copies the %d block sums back and adds them in double.\n\n",
           n, bytes / 1e9, blocks, BLOCKS_PER_SM, dev.sms, THREADS_PER_BLOCK, threads, ceil_div(n, threads), threads,
           THREADS_PER_BLOCK, BLOCK_ADDITIONS, THREADS_PER_BLOCK - 1, blocks);

    /* Check before timing, at sizes 1, 1023, 1025, a prime and N. Each element passes through at most
     * ceil(m / threads) float additions in its thread and BLOCK_ADDITIONS in its block; for positive
     * terms the relative error is at most that many times 2^-24 (the double host finish adds nothing). */
    int failures = 0;
    for (int k = 0; k < CHECKS; k++) {
        long long m = check_sizes[k];
        if (m > n || (k < CHECKS - 1 && m == n))
            continue;
        double got = gpu_sum(dev_array, m, blocks, dev_partial_sums, partial_sums);
        double tolerance = (ceil_div(m, threads) + BLOCK_ADDITIONS) * FLOAT_ROUNDING;
        failures += check(relative_error(got, want[k]) <= tolerance, "N = %lld: GPU %.9g, CPU %.9g, relative error "
                          "%.1e <= %.1e", m, got, want[k], relative_error(got, want[k]), tolerance);
    }
    if (failures)
        return 1;

    /* Time 1, as the article does: kernel + copy of the partial sums + host finish, by the wall clock.
     * Time 2: the kernel alone, between two CUDA events. It reads each element once: 4 bytes. */
    struct timed_runs runs = timed_runs_wall(ms, reps);
    while (timed_run(&runs))
        gpu_sum(dev_array, n, blocks, dev_partial_sums, partial_sums);
    struct stats whole = stats_of(ms, reps);
    runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs)) {
        reduce_naive<<<blocks, THREADS_PER_BLOCK>>>(dev_array, n, dev_partial_sums);
        CHECK_LAUNCH();
    }
    struct stats kernel = stats_of(ms, reps);
    printf("\n%d runs each; limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n",
           reps, copy_gbs);
    print_bandwidth("kernel", "kernel alone (events)", kernel, bytes, copy_gbs, "of copy");
    print_bandwidth("with_copy", "+ copy + host finish (wall)", whole, bytes, copy_gbs, "of copy");
    /* One core binds the CPU loop, not the GPU's memory: no limit beside it. */
    print_bandwidth("cpu", "CPU loop in double, 1 core", cpu, bytes, 0, "");
    print_article("Part 2, N = 1e9 on Colab, host clock (kernel, copy of the partial sums, host's sum): reduce_naive "
                  "30 +- 11 ms; NumPy's a.sum() 557 +- 307 ms, \"nearly 20x\"");
    printf("speed-up over the CPU: %.0fx (kernel alone), %.0fx (as the article times it)\n",
           cpu.median / kernel.median, cpu.median / whole.median);
    printf("\nWhat it means: the kernel reads each element once and does one addition per 4 bytes, so memory,\n"
           "not arithmetic, should set its speed; thread 0's serial additions are a fixed cost per block on top,\n"
           "which better.cu's tree removes. ./ch2_reduction/ladder compares both with CUB over N.\n");
    if (bytes < dev.l2_bytes)
        printf("note: the array (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", bytes / 1e6);

    CUDA_CHECK(cudaFree(dev_array));
    CUDA_CHECK(cudaFree(dev_partial_sums));
    free(a);
    free(partial_sums);
    free(ms);
    return exit_status(0);
}
