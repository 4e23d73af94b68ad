/* histogram_sweep.cu: Part 4, the block-count sweep: both GPU histograms of the article over 32 x i
 * blocks. The global-atomics kernel is limited by contention on 128 addresses as soon as the GPU is
 * full, so more blocks neither help nor hurt. The shared-memory kernel contends on chip, but each block
 * ends with up to 128 global atomics: those grow with the number of blocks, so after a sweet spot more
 * blocks make it slower. Too few blocks leave SMs idle in both. (The kernels are histogram.cu's,
 * repeated so that this file stands alone.)
 *   make ch4 && ./ch4_atomics_mutex/histogram_sweep        (i = 10, 15, ..., 995; writes CSV for make figures)
 *   ./ch4_atomics_mutex/histogram_sweep --step 50 -r 5
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/text.h"
#include "../common/timer.h"

/* The article sweeps the block count in steps of SWEEP_UNIT: 32 x i blocks of 128 threads. */
enum { BINS = 128, THREADS = 128, SWEEP_UNIT = 32 };

/* ==== Kernels: histogram.cu's (tests/copies.t keeps them equal) ==== */

/* Example 4.3: atomics on the global histogram. With 128 x 32 x SMs threads (540,672 on an H200)
 * in flight and 128 bins, about 4,200 threads want each bin if the characters were uniform. They are
 * not: most of a text is lower-case letters and spaces, so the crowd at 'e' or ' ' is several times
 * larger, and each atomic on one address waits for the one before it in the L2 cache. */
__global__ void histogram_global(const unsigned char *text, long long n, unsigned int *histo)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        if (text[i] < BINS)
            atomicAdd(&histo[text[i]], 1u);
}

/* Example 4.4: a private histogram per block in shared memory. Now only a block's 128 threads contend
 * for its bins, on chip, and each block makes at most 128 global atomics at the end. That last part
 * grows with the number of blocks: too many blocks and the final atomics dominate (histogram_sweep). */
__global__ void histogram_shared(const unsigned char *text, long long n, unsigned int *histo)
{
    __shared__ unsigned int s_histo[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s_histo[b] = 0;
    __syncthreads();
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        if (text[i] < BINS)
            atomicAdd(&s_histo[text[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s_histo[b] > 0)
            atomicAdd(&histo[b], s_histo[b]);
}

/* ==== Host helpers ==== */

/* The names are the CSV's (plots/histogram_sweep.gp reads them). */
enum version { GLOBAL, SHARED, VERSIONS };
static const char *names[VERSIONS] = {"global", "shared"};

/* Queues one histogram on stream 0: the zeroing of the bins, then the kernel on `blocks` blocks. */
static void launch(enum version v, int blocks, const unsigned char *text, long long n, unsigned int *histo)
{
    CUDA_CHECK(cudaMemsetAsync(histo, 0, BINS * sizeof(unsigned int), 0));
    if (v == GLOBAL)
        histogram_global<<<blocks, THREADS>>>(text, n, histo);
    else
        histogram_shared<<<blocks, THREADS>>>(text, n, histo);
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 5600000;
    int first = 10, last = 995, step = 5, reps = 21;
    const char *csv_path = "output/ch4/histogram_sweep.csv";
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 2e9, "bytes of synthetic text (default 5600000)"},
        {"--from", CLI_INT, &first, 1, 100000, "first i of 32 x i blocks (default 10)"},
        {"--to", CLI_INT, &last, 1, 100000, "last i (default 995)"},
        {"--step", CLI_INT, &step, 1, 100000, "step of i (default 5, the article's)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs per point (default 21)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0,
         "write the sweep to FILE (default output/ch4/histogram_sweep.csv)"},
    };
    int device = cli_parse(argc, argv, "Part 4: both GPU histograms over block counts 32 x i.", options,
                           COUNT_OF(options));
    if (last < first)
        cli_usage_error(argv[0], "--to %d is below --from %d", last, first);
    int points_total = (last - first) / step + 1;
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, 1.0, 1.0, 0);  /* one byte a character, on the GPU and the host */

    unsigned char *text = (unsigned char *)host_alloc(n), *dev_text;
    unsigned int want[BINS] = {0}, got[BINS], *dev_histo;
    double *ms = (double *)host_alloc(reps * sizeof(double));
    english_like_text(text, n, 2022);
    for (long long i = 0; i < n; i++)
        if (text[i] < BINS)
            want[text[i]]++;
    CUDA_CHECK(cudaMalloc(&dev_text, n));
    CUDA_CHECK(cudaMalloc(&dev_histo, sizeof want));
    CUDA_CHECK(cudaMemcpy(dev_text, text, n, cudaMemcpyHostToDevice));

    FILE *csv = csv_open(csv_path, "kernel,i,blocks,median_ms,mean_ms,std_ms,sms");
    int failures = 0, points = 0, best_i[VERSIONS] = {0, 0};
    double best_ms[VERSIONS] = {1e30, 1e30};
    for (int i = first; i <= last; i += step) {
        int blocks = SWEEP_UNIT * i;
        double point_start = wall_seconds();
        for (int v = 0; v < VERSIONS; v++) {
            /* The checked run, before any timing. */
            launch((enum version)v, blocks, dev_text, n, dev_histo);
            CUDA_CHECK(cudaMemcpy(got, dev_histo, sizeof got, cudaMemcpyDeviceToHost));
            if (memcmp(got, want, sizeof want))  /* only the failures are printed */
                failures += check(0, "%s kernel with %d blocks differs from the CPU", names[v], blocks);
            struct timed_runs runs = timed_runs(ms, reps, 0);
            while (timed_run(&runs))
                launch((enum version)v, blocks, dev_text, n, dev_histo);
            struct stats s = stats_of(ms, reps);
            csv_row(csv, "%s,%d,%d,%.5f,%.5f,%.5f,%d", names[v], i, blocks, s.median, s.mean, s.std, dev.sms);
            if (s.median < best_ms[v]) {
                best_ms[v] = s.median;
                best_i[v] = i;
            }
        }
        /* The second point, past the first launches' one-time costs, says how long the rest will take. */
        if (++points == 2)
            say_how_long("the sweep", (points_total - 2) * (wall_seconds() - point_start),
                         "fewer points or a smaller -r");
        else if (points > 2)
            say_progress((double)(points - 2) / (points_total - 2));  /* a line every 10 s or so */
    }
    if (check(failures == 0, "%d block counts x %d kernels, every histogram equal to the CPU's", points, VERSIONS))
        return 1;  /* the temporary CSV is removed at exit: no results file from a failed run */
    csv_close(csv);
    printf("%lld bytes of synthetic text, %d points, %d runs each:\n", n, points, reps);
    for (int v = 0; v < VERSIONS; v++)
        printf("  %-7s best at %d x %d = %d blocks (%.1f blocks per SM): %.3f ms, %.1f GB/s\n", names[v], SWEEP_UNIT,
               best_i[v], SWEEP_UNIT * best_i[v], (double)SWEEP_UNIT * best_i[v] / dev.sms, best_ms[v],
               n / (best_ms[v] * 1e-3) / 1e9);
    printf("wrote %s\n", csv_path);

    CUDA_CHECK(cudaFree(dev_text));
    CUDA_CHECK(cudaFree(dev_histo));
    free(text);
    free(ms);
    return exit_status(0);
}
