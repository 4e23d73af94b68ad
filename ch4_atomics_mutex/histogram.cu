/* histogram.cu: Part 4, Examples 4.3 and 4.4, a histogram of the ASCII characters of a text.
 * Each byte below 128 adds one to its bin. Many threads add to few bins, so the additions must be
 * atomic. With atomicAdd on the 128 bins in global memory every thread of the GPU contends for them;
 * with a histogram per block in shared memory, a block's threads contend on-chip and each block adds
 * its 128 counts to global memory once. CUB's DeviceHistogram is the library reference; going further,
 * histogram_wide.cu beats it.
 *   make ch4 && ./ch4_atomics_mutex/histogram                 (5.6 MB of synthetic English-like text)
 *   ./ch4_atomics_mutex/histogram --input book.txt            (any file; bytes >= 128 are ignored)
 *   ./ch4_atomics_mutex/histogram -n 1e9                      (1 GB of synthetic text)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_histogram.cuh>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/text.h"
#include "../common/timer.h"

enum { BINS = 128, THREADS = 128 };

/* ==== Kernels ==== */

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

/* ==== CPU reference and host helpers ==== */

/* The CPU as the article writes it: one byte, one test, one increment. */
static void histogram_cpu(const unsigned char *text, long long n, unsigned int *histo)
{
    memset(histo, 0, BINS * sizeof *histo);
    for (long long i = 0; i < n; i++)
        if (text[i] < BINS)
            histo[text[i]]++;
}

/* The best single-core loop here: no branch (count all 256 byte values), and four tables so that
 * consecutive equal bytes do not wait for each other's increment; bytes >= 128 are dropped at the end. */
static void histogram_cpu_best(const unsigned char *text, long long n, unsigned int *histo)
{
    static unsigned int part[4][256];
    memset(part, 0, sizeof part);
    long long i = 0;
    for (; i + 4 <= n; i += 4) {
        part[0][text[i]]++;
        part[1][text[i + 1]]++;
        part[2][text[i + 2]]++;
        part[3][text[i + 3]]++;
    }
    for (; i < n; i++)
        part[0][text[i]]++;
    for (int b = 0; b < BINS; b++)
        histo[b] = part[0][b] + part[1][b] + part[2][b] + part[3][b];
}

enum variant { GLOBAL, SHARED, LIBRARY, VARIANTS };
static const char *names[VARIANTS] = {"GPU, global atomics (4.3)", "GPU, shared memory (4.4)", "CUB HistogramEven"};
static const char *keys[VARIANTS] = {"gpu_global", "gpu_shared", "cub"};  /* their rows' keys in --csv */

struct gpu_work {
    const unsigned char *text;
    long long n;
    unsigned int *histo;
    void *temp;
    size_t temp_bytes;
    int blocks;
};

/* Queues one histogram on stream 0, starting with the zeroing of the output (CUB writes every bin). */
static void queue_histogram(enum variant v, const struct gpu_work *w)
{
    if (v == LIBRARY) {
        /* 129 levels 0, 1, ..., 128 make 128 bins of width 1; the upper level is exclusive, so bytes
         * >= 128 fall outside and are not counted, as in the article. */
        size_t temp_bytes = w->temp_bytes;  /* CUB takes the size by (C++) reference */
        CUDA_CHECK(cub::DeviceHistogram::HistogramEven(w->temp, temp_bytes, w->text, w->histo, BINS + 1, 0, (int)BINS,
                                                       w->n));
        return;
    }
    CUDA_CHECK(cudaMemsetAsync(w->histo, 0, BINS * sizeof(unsigned int), 0));
    if (v == GLOBAL)
        histogram_global<<<w->blocks, THREADS>>>(w->text, w->n, w->histo);
    else
        histogram_shared<<<w->blocks, THREADS>>>(w->text, w->n, w->histo);
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 5600000;
    int reps = 21;
    const char *input = NULL, *counts_path = "output/ch4/histogram.csv";
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"--input", CLI_INPUT_FILE, &input, 0, 0, "FILE to count (default: synthetic English-like text)"},
        {"-n", CLI_SIZE, &n, 1, 2e9, "bytes of synthetic text (default 5600000, about Shakespeare's works)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        {"--counts", CLI_OUTPUT_FILE, &counts_path, 0, 0,
         "write the counts to FILE (default output/ch4/histogram.csv)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 4, Examples 4.3-4.4: a histogram of a text with atomics.", options,
                           COUNT_OF(options));
    results_to(results_path);
    if (input && cli_given("-n"))
        cli_usage_error(argv[0], "-n sizes the synthetic text; with --input the file's size is used");
    unsigned char *text = NULL;
    if (input) {  /* read before the GPU is touched: a file that cannot be read is a usage error */
        char error[512];
        if (!(text = read_file(input, &n, error, sizeof error))) {
            fprintf(stderr, "%s: --input: %s\n", argv[0], error);
            return 2;
        }
    }
    struct device_info dev;
    device_start(device, &dev);
    if (input) {
        device_need_memory(&dev, n, "a smaller file");
    } else {
        n = size_to_fit(&dev, "-n", n, 1, 1.0, 1.0, 0);  /* one byte a character, on the GPU and the host */
        text = (unsigned char *)host_alloc(n);
        english_like_text(text, n, 2022);
    }
    /* Every version reads each byte once. The fast ones are bounded by memory: the copy bandwidth,
     * measured now while the text's memory is free, is their yardstick. Global atomics are bounded by
     * something else, contention: the threads in flight that add into the same few bins wait for each
     * other, far below any memory limit. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    printf("%lld bytes of %s\n", n, input ? input : "synthetic English-like text");

    /* The CPU: the reference (naive loop) and the best loop, by the wall clock. */
    unsigned int want[BINS], got[BINS];
    double *ms = (double *)host_alloc(reps * sizeof(double));
    int cpu_reps = reps < 5 ? reps : 5;
    struct stats cpu[2];
    for (int k = 0; k < COUNT_OF(cpu); k++) {
        for (int r = 0; r < cpu_reps; r++) {
            double start = wall_seconds();
            if (k == 0)
                histogram_cpu(text, n, want);
            else
                histogram_cpu_best(text, n, got);
            ms[r] = (wall_seconds() - start) * 1e3;
        }
        cpu[k] = stats_of(ms, cpu_reps);
    }
    int failures = check(!memcmp(got, want, sizeof want), "best CPU loop equals the naive CPU loop");

    struct gpu_work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.blocks = BLOCKS_PER_SM * dev.sms;  /* the article's launch: 128 threads x 32 blocks per SM */
    unsigned char *dev_text;
    CUDA_CHECK(cudaMalloc(&dev_text, n > 0 ? n : 1));
    CUDA_CHECK(cudaMalloc(&w.histo, BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dev_text, text, n, cudaMemcpyHostToDevice));
    w.text = dev_text;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven((void *)NULL, w.temp_bytes, w.text, w.histo, BINS + 1, 0, (int)BINS,
                                                   w.n));
    CUDA_CHECK(cudaMalloc(&w.temp, w.temp_bytes > 0 ? w.temp_bytes : 1));

    /* Correct first: every GPU histogram equal to the CPU's, bin by bin. */
    for (int v = 0; v < VARIANTS; v++) {
        /* Poison: CUB must write every bin (the course's kernels add to bins that queue_histogram zeroes). */
        CUDA_CHECK(cudaMemset(w.histo, 0xff, BINS * sizeof(unsigned int)));
        queue_histogram((enum variant)v, &w);
        CUDA_CHECK(cudaMemcpy(got, w.histo, sizeof got, cudaMemcpyDeviceToHost));
        int differ = 0;
        for (int b = 0; b < BINS; b++)
            differ += got[b] != want[b];
        failures += check(differ == 0, "%s: %d of %d bins differ from the CPU", names[v], differ, BINS);
    }
    if (failures)
        return 1;

    /* The most frequent characters, and the counts for the bar chart. */
    long long counted = 0;
    for (int b = 0; b < BINS; b++)
        counted += want[b];
    printf("\nmost frequent (of %lld ASCII bytes):", counted);
    unsigned int shown[BINS] = {0};
    for (int k = 0; k < 8 && counted > 0; k++) {
        int best = -1;
        for (int b = 0; b < BINS; b++)
            if (!shown[b] && (best < 0 || want[b] > want[best]))
                best = b;
        shown[best] = 1;
        printf("  %s%c%s %.1f%%", best == ' ' || best == '\n' ? "'" : "", best == '\n' ? 'n' : best,
               best == ' ' || best == '\n' ? (best == '\n' ? "\\n'" : "'") : "", 100.0 * want[best] / counted);
    }
    printf("\n");
    FILE *csv = csv_open(counts_path, "code,char,count");  /* char: empty where not printable, or a comma */
    for (int b = 0; b < BINS; b++) {
        char c[2] = {(char)(b > 32 && b < 127 && b != ',' ? b : 0), 0};
        csv_row(csv, "%d,%s,%u", b, c, want[b]);
    }
    csv_close(csv);

    /* Time: the zeroing of the bins and the kernel (or CUB's call), between events. */
    double medians[VARIANTS];
    printf("\n%d runs each (GPU: zeroing + kernel, by events; CPU: wall clock); GB/s of text read;\n"
           "limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n", reps, copy_gbs);
    /* The CPU loops are bounded by one core, the global atomics by contention: neither is compared with
     * the GPU's copy bandwidth, which does not bind them. */
    print_bandwidth("cpu_naive", "CPU, naive loop, 1 core", cpu[0], (double)n, 0, "");
    print_bandwidth("cpu_best", "CPU, best loop, 1 core", cpu[1], (double)n, 0, "");
    /* Its baselines were NumPy and a Python loop; a C loop is faster than both (the README says why). */
    print_article("Part 4: NumPy \"at least 40x\" slower than the GPU's global atomics, a Python loop \"thousands of "
                  "times\" slower");
    print_article("Part 4, its text: about 5.7 million characters; its Python loop over them: over 10 s");
    for (int v = 0; v < VARIANTS; v++) {
        struct timed_runs runs = timed_runs(ms, reps, 0);
        while (timed_run(&runs))
            queue_histogram((enum variant)v, &w);
        struct stats s = stats_of(ms, reps);
        medians[v] = s.median;
        print_bandwidth(keys[v], names[v], s, (double)n, v == GLOBAL ? 0 : copy_gbs, "of copy");
    }
    printf("\nshared-memory histogram / global atomics: %.1fx faster\n",
           medians[GLOBAL] / medians[SHARED]);
    print_article("Part 4: the shared-memory histogram \"~3x\" faster than global atomics");
    /* The contention arithmetic: how many threads want the same bin at once, and what one add costs if
     * the commonest bin's adds are done one after another. */
    int hot = 0;
    for (int b = 0; b < BINS; b++)
        hot = want[b] > want[hot] ? b : hot;
    long long in_flight = (long long)dev.sms * dev.threads_per_sm;
    if (in_flight > (long long)w.blocks * THREADS)
        in_flight = (long long)w.blocks * THREADS;
    if (counted > 0)
        printf("contention: %lld threads in flight (%d SMs x %d), and byte %d is %.1f%% of the text: about %.0f "
               "threads add to that one bin at any moment. Done one after another in the L2 cache, its %u adds "
               "would take %.2f ns each in the global-atomics time.\n",
               in_flight, dev.sms, dev.threads_per_sm, hot, 100.0 * want[hot] / counted,
               (double)in_flight * want[hot] / counted, want[hot], medians[GLOBAL] * 1e6 / want[hot]);
    printf("CUB / shared-memory histogram: %.2fx the throughput\n", medians[SHARED] / medians[LIBRARY]);
    printf("\nWhat it means: atomics on one address wait for each other. In global memory they queue in the L2\n"
           "cache; a histogram per block moves the queue into each SM's shared memory. Going further,\n"
           "./ch4_atomics_mutex/histogram_wide reads 16 bytes a thread and drops the `if`: it beats CUB.\n");
    if (n < (long long)dev.l2_bytes)
        printf("note: the text (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", n / 1e6);
    printf("wrote %s\n", counts_path);

    CUDA_CHECK(cudaFree(dev_text));
    CUDA_CHECK(cudaFree(w.histo));
    CUDA_CHECK(cudaFree(w.temp));
    free(text);
    free(ms);
    return exit_status(0);
}
