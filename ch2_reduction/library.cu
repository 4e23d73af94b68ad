/* library.cu: Part 2, Example 2.3, the library reduction: cub::DeviceReduce::Sum.
 * Numba's @cuda.reduce turns a binary function into a reduction; the CUDA counterpart is CUB, shipped
 * with the toolkit. It is called twice: first with no storage, to learn how much temporary memory it
 * needs, then with that memory to do the sum. The result stays in device memory: unlike Numba's default,
 * nothing is copied to the host, so nothing forces the host to wait (the article's point).
 *   make ch2 && ./ch2_reduction/library               (N = 1e9 float32, as in the article)
 *   ./ch2_reduction/library -n 1e8
 */
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>  /* C++ templates: this file uses them and nothing more of C++ */

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* The CPU reference: a loop accumulating in double, as in naive.cu (where the reason is given). */
static double cpu_sum(const float *a, long long n)
{
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

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
    int device = cli_parse(argc, argv, "Part 2, Example 2.3: the library reduction, cub::DeviceReduce::Sum.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);  /* the limit, while the array's memory is free */

    float *a = (float *)host_alloc(bytes);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    double scale = 2.0 / ((double)n * (n + 1));  /* the article's scaled arange, from 1, as in better.cu */
    for (long long i = 0; i < n; i++)
        a[i] = (float)((i + 1) * scale);
    float *dev_array, *dev_sum;
    CUDA_CHECK(cudaMalloc(&dev_array, bytes));
    CUDA_CHECK(cudaMalloc(&dev_sum, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dev_array, a, bytes, cudaMemcpyHostToDevice));

    /* Phase 1: no storage given, so CUB only says how many bytes of scratch it needs (for the partial
     * sums of its first pass). Phase 2: the sum itself. The size is computed for N and is enough for
     * any smaller count. */
    size_t temp_bytes = 0;
    void *dev_temp = NULL;
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, temp_bytes, dev_array, dev_sum, n));
    CUDA_CHECK(cudaMalloc(&dev_temp, temp_bytes));
    printf("N = %lld float32 (%.2f GB); CUB asks for %zu bytes of temporary storage\n", n, bytes / 1e9,
           temp_bytes);

    /* Check at 1, 1023, 1025, a prime and N before timing. CUB accumulates in float, each thread over
     * a strided share of the input: at most about N / (threads resident on the GPU) additions per
     * element, plus CUB_TREE_ADDITIONS: a block tree of log2(1024) steps, then another over the blocks'
     * sums. For positive terms the relative error is at most that many times 2^-24. (Resident threads
     * per SM: 2048 on an H200, 1024 on a T4; the device says.) */
    enum { CHECKS = 5, CUB_TREE_ADDITIONS = 2 * 10 };
    long long check_sizes[CHECKS] = {1, 1023, 1025, 1000003, n};
    long long resident_threads = (long long)dev.sms * dev.threads_per_sm;
    int failures = 0;
    for (int k = 0; k < CHECKS; k++) {
        long long m = check_sizes[k];
        if (m > n || (k < CHECKS - 1 && m == n))
            continue;
        float got = 0.0f;
        CUDA_CHECK(cub::DeviceReduce::Sum(dev_temp, temp_bytes, dev_array, dev_sum, m));
        CUDA_CHECK(cudaMemcpy(&got, dev_sum, sizeof got, cudaMemcpyDeviceToHost));
        double want = cpu_sum(a, m);
        double tolerance = (ceil_div(m, resident_threads) + CUB_TREE_ADDITIONS) * FLOAT_ROUNDING;
        failures += check(relative_error(got, want) <= tolerance, "N = %lld: CUB %.9g, CPU %.9g, relative error "
                          "%.1e <= %.1e", m, got, want, relative_error(got, want), tolerance);
    }
    if (failures)
        return 1;

    /* Time 1: the call alone, between events; the sum stays on the device. Time 2: with the copy of
     * the one float back to the host, by the wall clock, which is what Numba's default call costs. */
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs))
        CUDA_CHECK(cub::DeviceReduce::Sum(dev_temp, temp_bytes, dev_array, dev_sum, n));
    struct stats kernel = stats_of(ms, reps);
    float s = 0.0f;
    runs = timed_runs_wall(ms, reps);
    while (timed_run(&runs)) {
        CUDA_CHECK(cub::DeviceReduce::Sum(dev_temp, temp_bytes, dev_array, dev_sum, n));
        CUDA_CHECK(cudaMemcpy(&s, dev_sum, sizeof s, cudaMemcpyDeviceToHost));  /* waits for the sum */
    }
    printf("\n%d runs each; limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n",
           reps, copy_gbs);
    print_bandwidth("cub", "CUB, result on device", kernel, bytes, copy_gbs, "of copy");
    print_bandwidth("cub_with_copy", "CUB + copy to host (wall)", stats_of(ms, reps), bytes, copy_gbs, "of copy");
    print_article("Part 2, N = 1e9 on Colab, host clock with the copy of the sum: Numba's cuda.reduce 20 +- 0 ms "
                  "(its reduce_better 23 +- 1 ms)");
    print_article("Part 2: hand-written reductions \"at least 2x\" faster than Numba's cuda.reduce");
    if (bytes < dev.l2_bytes)
        printf("note: the array (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", bytes / 1e6);

    CUDA_CHECK(cudaFree(dev_temp));
    CUDA_CHECK(cudaFree(dev_array));
    CUDA_CHECK(cudaFree(dev_sum));
    free(a);
    free(ms);
    return exit_status(0);
}
