/* histogram_wide.cu: going further than Part 4, Example 4.4: a histogram of a text faster than CUB's.
 * The article's shared-memory kernel reads one byte a thread and tests it (`if (c < 128)`) before its
 * atomic. This one reads 16 bytes a thread with one load, two loads in flight, and counts all 256 byte
 * values in a shared histogram, so no byte is tested; bins 128-255 are dropped at the end. One wave of
 * 1024-thread blocks loops over the text. Checked against the CPU, timed against CUB's HistogramEven and
 * the device-to-device copy bandwidth (every byte is read once).
 *   make ch4 && ./ch4_atomics_mutex/histogram_wide           (5.6 MB of synthetic English-like text)
 *   ./ch4_atomics_mutex/histogram_wide -n 1e9                 (1 GB of it: memory is the limit)
 *   ./ch4_atomics_mutex/histogram_wide --input book.txt       (any file; bytes >= 128 are not counted)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_histogram.cuh>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/text.h"
#include "../common/timer.h"

enum { BINS = 128, WIDE_THREADS = 1024 };

/* ==== Kernels ==== */

/* Each thread reads 16 bytes with one load and has two loads in flight before it counts, and the
 * shared histogram has all 256 bins, so no byte is tested: bins 128-255 are counted and dropped at the
 * end, as in histogram.cu's best CPU loop. The test is what costs. The compiler does
 * not predicate an atomic: `if (c < 128) atomicAdd(...)` becomes a branch and a reconvergence point
 * around each of the 16 atomics, and the warp runs them one region at a time. Without the branch,
 * one warp-wide ATOMS per byte is all that is left (measured on an H200, see the README: with the
 * test, versions of this kernel with 1 to 32 copies of the histogram ran at 0.7x to 0.8x CUB on
 * 1 GB; without it, 1.2x).
 * One block of 1024 threads per SM slot, and the grid is one wave: every block loops until the text
 * ends, so the 256-bin zeroing and the final atomics happen once per slot, not once per 16 kB. */
__device__ void count16(uint4 v, unsigned int *s_histo)
{
    unsigned int words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int w = 0; w < 4; w++)
#pragma unroll
        for (int k = 0; k < 4; k++)
            atomicAdd(&s_histo[(words[w] >> (8 * k)) & 0xff], 1u);  /* no `if`: see above */
}

__global__ void __launch_bounds__(WIDE_THREADS) histogram_wide(const unsigned char *text, long long n,
                                                               unsigned int *histo)
{
    __shared__ unsigned int s_histo[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        s_histo[b] = 0;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x, first = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    const uint4 *text16 = (const uint4 *)text;  /* cudaMalloc memory is 256-byte aligned */
    long long i = first, n16 = n / 16;
    for (; i + stride < n16; i += 2 * stride) {
        uint4 v0 = text16[i], v1 = text16[i + stride];
        count16(v0, s_histo);
        count16(v1, s_histo);
    }
    if (i < n16)
        count16(text16[i], s_histo);
    for (long long j = n16 * 16 + first; j < n; j += stride)  /* the last n % 16 bytes */
        atomicAdd(&s_histo[text[j]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)  /* bins 128-255 are not ASCII: dropped */
        if (s_histo[b] > 0)
            atomicAdd(&histo[b], s_histo[b]);
}

/* ==== CPU reference and host helpers ==== */

/* The CPU reference as the article writes it (histogram.cu's): one byte, one test, one increment. */
static void histogram_cpu(const unsigned char *text, long long n, unsigned int *histo)
{
    memset(histo, 0, BINS * sizeof *histo);
    for (long long i = 0; i < n; i++)
        if (text[i] < BINS)
            histo[text[i]]++;
}

enum variant { WIDE, LIBRARY, VARIANTS };
static const char *names[VARIANTS] = {"16 B loads, 256 bins, no branch", "CUB HistogramEven"};
static const char *keys[VARIANTS] = {"wide", "cub"};  /* their rows' keys in --csv */

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
    histogram_wide<<<w->blocks, WIDE_THREADS>>>(w->text, w->n, w->histo);
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 5600000;
    int reps = 21;
    const char *input = NULL;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"--input", CLI_INPUT_FILE, &input, 0, 0, "FILE to count (default: synthetic English-like text)"},
        {"-n", CLI_SIZE, &n, 1, 2e9, "bytes of synthetic text (default 5600000, about Shakespeare's works)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Going further than Example 4.4: a histogram faster than CUB's.", options,
                           COUNT_OF(options));
    results_to(results_path);
    /* The text, the CPU reference and CUB's call are histogram.cu's, line for line, so that the two
     * programs count the same bytes the same way. */
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
    /* Both versions read each byte once, so memory bounds them: the copy bandwidth (each byte read and
     * written), measured now while the text's memory is free, is their yardstick; a kernel that only
     * reads can pass it by a few percent. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    printf("%lld bytes of %s\n", n, input ? input : "synthetic English-like text");
    unsigned int want[BINS], got[BINS];
    histogram_cpu(text, n, want);

    struct gpu_work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    int per_sm = 0;  /* one wave (see the kernel's comment) */
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_wide, WIDE_THREADS, 0));
    w.blocks = per_sm * dev.sms;
    unsigned char *dev_text;
    CUDA_CHECK(cudaMalloc(&dev_text, n > 0 ? n : 1));
    CUDA_CHECK(cudaMalloc(&w.histo, BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dev_text, text, n, cudaMemcpyHostToDevice));
    w.text = dev_text;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven((void *)NULL, w.temp_bytes, w.text, w.histo, BINS + 1, 0, (int)BINS,
                                                   w.n));
    CUDA_CHECK(cudaMalloc(&w.temp, w.temp_bytes > 0 ? w.temp_bytes : 1));

    /* Correct first: both GPU histograms equal to the CPU's, bin by bin. */
    int failures = 0;
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

    /* Time: the zeroing of the bins and the kernel (or CUB's call), between events. */
    double *ms = (double *)host_alloc(reps * sizeof(double)), medians[VARIANTS];
    printf("\n%d runs each (zeroing + kernel, by events); GB/s of text read;\n"
           "limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n", reps, copy_gbs);
    for (int v = 0; v < VARIANTS; v++) {
        struct timed_runs runs = timed_runs(ms, reps, 0);
        while (timed_run(&runs))
            queue_histogram((enum variant)v, &w);
        struct stats s = stats_of(ms, reps);
        medians[v] = s.median;
        print_bandwidth(keys[v], names[v], s, (double)n, copy_gbs, "of copy");
    }
    printf("\n%d blocks of %d threads (%d per SM): %.2fx CUB's throughput\n", w.blocks, WIDE_THREADS, per_sm,
           medians[LIBRARY] / medians[WIDE]);
    printf("\nWhat it means: without the `if`, each byte costs one shared-memory atomic and nothing else, and\n"
           "16-byte loads keep enough bytes in flight; on 1 GB it runs near the copy bandwidth. The article's\n"
           "kernels are in ./ch4_atomics_mutex/histogram; the chapter README tells the versions that did not work.\n");
    if (n < (long long)dev.l2_bytes)
        printf("note: the text (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", n / 1e6);

    CUDA_CHECK(cudaFree(dev_text));
    CUDA_CHECK(cudaFree(w.histo));
    CUDA_CHECK(cudaFree(w.temp));
    free(text);
    free(ms);
    return exit_status(0);
}
