/* histogram.cu: Part 4, Examples 4.3 and 4.4, a histogram of the ASCII characters of a text.
 * Each byte below 128 adds one to its bin. Many threads add to few bins, so the additions must be
 * atomic. With atomicAdd on the 128 bins in global memory every thread of the GPU contends for them;
 * with a histogram per block in shared memory, a block's threads contend on-chip and each block adds
 * its 128 counts to global memory once. CUB's DeviceHistogram is the library reference.
 *   make ch4 && ./ch4_atomics_mutex/histogram                 (5.6 MB of synthetic English-like text)
 *   ./ch4_atomics_mutex/histogram --input book.txt            (any file; bytes >= 128 are ignored)
 *   ./ch4_atomics_mutex/histogram -n 1e9                      (1 GB of synthetic text)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cub/device/device_histogram.cuh>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/text.h"
#include "../common/timer.h"

enum { BINS = 128, THREADS = 128, WIDE_THREADS = 1024 };

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

/* Going further: each thread reads 16 bytes with one load and has two loads in flight before it
 * counts, and the shared histogram has all 256 bins, so no byte is tested: bins 128-255 are
 * counted and dropped at the end, as in the best CPU loop. The test is what costs. The compiler does
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

__global__ void __launch_bounds__(WIDE_THREADS) histogram_wide(const unsigned char *text, long long n, unsigned int *histo)
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

/* Reads a whole file; exit 2 (usage) if it cannot. */
static unsigned char *read_file(const char *program, const char *path, long long *n)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: --input: cannot read '%s': %s\n", program, path, f ? "not a regular file" : strerror(errno));
        exit(2);
    }
    *n = st.st_size;
    unsigned char *text = (unsigned char *)malloc(*n > 0 ? *n : 1);
    if (!text || (long long)fread(text, 1, *n, f) != *n) {
        fprintf(stderr, "%s: --input: could not read all %lld bytes of '%s'\n", program, *n, path);
        exit(2);
    }
    fclose(f);
    return text;
}

enum variant { GLOBAL, SHARED, WIDE, LIBRARY, VARIANTS };
static const char *names[VARIANTS] = {"GPU, global atomics (4.3)", "GPU, shared memory (4.4)",
                                      "going further, 256 bins", "CUB HistogramEven"};

struct gpu_work {
    const unsigned char *text;
    long long n;
    unsigned int *histo;
    void *temp;
    size_t temp_bytes;
    int blocks, wide_blocks;
};

/* Queues one histogram on stream 0, starting with the zeroing of the output (CUB writes every bin). */
static void queue_histogram(enum variant v, const struct gpu_work *w)
{
    if (v == LIBRARY) {
        /* 129 levels 0, 1, ..., 128 make 128 bins of width 1; the upper level is exclusive, so bytes
         * >= 128 fall outside and are not counted, as in the article. */
        size_t temp_bytes = w->temp_bytes;
        CUDA_CHECK(cub::DeviceHistogram::HistogramEven(w->temp, temp_bytes, w->text, w->histo, BINS + 1, 0, (int)BINS,
                                                       w->n));
        return;
    }
    CUDA_CHECK(cudaMemsetAsync(w->histo, 0, BINS * sizeof(unsigned int), 0));
    if (v == GLOBAL)
        histogram_global<<<w->blocks, THREADS>>>(w->text, w->n, w->histo);
    else if (v == SHARED)
        histogram_shared<<<w->blocks, THREADS>>>(w->text, w->n, w->histo);
    else
        histogram_wide<<<w->wide_blocks, WIDE_THREADS>>>(w->text, w->n, w->histo);
    CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    long long n = 5600000;
    int reps = 21;
    const char *input = NULL, *csv_path = "output/ch4/histogram.csv";
    struct cli_option options[] = {
        {"--input", CLI_STRING, &input, 0, 0, "FILE to count (default: synthetic English-like text)"},
        {"-n", CLI_SIZE, &n, 1, 2e9, "bytes of synthetic text (default 5600000, about Shakespeare's works)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        {"--csv", CLI_STRING, &csv_path, 0, 0, "write the counts to FILE (default output/ch4/histogram.csv)"},
    };
    int device = cli_parse(argc, argv, "Part 4, Examples 4.3-4.4: a histogram of a text with atomics.", options, 4);
    unsigned char *text = NULL;
    if (input)  /* read before the GPU is touched: a file that cannot be read is a usage error */
        text = read_file(argv[0], input, &n);
    struct device_info dev;
    device_start(device, &dev);
    if (input) {
        device_need_memory(&dev, n, "a smaller file");
    } else {
        n = size_to_fit(&dev, "-n", n, 1, 1.0, 1.0, 0);  /* one byte a character, on the GPU and the host */
        if (!(text = (unsigned char *)malloc(n))) {
            fprintf(stderr, "out of host memory for %lld bytes; try a smaller -n\n", n);
            return 1;
        }
        english_like_text(text, n, 2022);
    }
    /* Every version reads each byte once, so memory bounds them all: the copy bandwidth is the ceiling,
     * measured now, while the text's memory is still free. */
    double copy_gbs = measure_copy_bandwidth(1u << 30);
    printf("%lld bytes of %s\n", n, input ? input : "synthetic English-like text");

    /* The CPU: the reference (naive loop) and the best loop, by the wall clock. */
    unsigned int want[BINS], got[BINS];
    double *ms = (double *)malloc(reps * sizeof(double));
    int cpu_reps = reps < 5 ? reps : 5;
    struct stats cpu[2];
    for (int k = 0; k < 2; k++) {
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
    int ok = check_report(!memcmp(got, want, sizeof want), "best CPU loop equals the naive CPU loop");

    struct gpu_work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.blocks = 32 * dev.sms;  /* the article's launch: 128 threads x 32 blocks per SM */
    int per_sm = 0;  /* one wave of the wide kernel (see its comment) */
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_wide, WIDE_THREADS, 0));
    w.wide_blocks = per_sm * dev.sms;
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
        CUDA_CHECK(cudaMemset(w.histo, 0xff, BINS * sizeof(unsigned int)));  /* poison: every bin must be written */
        queue_histogram((enum variant)v, &w);
        CUDA_CHECK(cudaMemcpy(got, w.histo, sizeof got, cudaMemcpyDeviceToHost));
        int differ = 0;
        for (int b = 0; b < BINS; b++)
            differ += got[b] != want[b];
        ok &= check_report(differ == 0, "%s: %d of 128 bins differ from the CPU", names[v], differ);
    }
    if (!ok)
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
    FILE *csv = csv_open(csv_path, &dev, "code,char,count");  /* char: empty where not printable, or a comma */
    for (int b = 0; b < BINS; b++) {
        char c[2] = {(char)(b > 32 && b < 127 && b != ',' ? b : 0), 0};
        csv_row(csv, "%d,%s,%u", b, c, want[b]);
    }
    csv_close(csv);

    /* Time: the zeroing of the bins and the kernel (or CUB's call), between events. */
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    double medians[VARIANTS];
    printf("\n%d runs each (GPU: zeroing + kernel, by events; CPU: wall clock); GB/s of text read;\n"
           "limit = device-to-device copy bandwidth %.0f GB/s (read + write, measured now)\n", reps, copy_gbs);
    print_bandwidth("CPU, naive loop, 1 core", cpu[0], (double)n, copy_gbs, "of copy");
    print_bandwidth("CPU, best loop, 1 core", cpu[1], (double)n, copy_gbs, "of copy");
    for (int v = 0; v < VARIANTS; v++) {
        for (int r = -1; r < reps; r++) {
            gpu_timer_start(&timer, 0);
            queue_histogram((enum variant)v, &w);
            float t = gpu_timer_stop(&timer);
            if (r >= 0)
                ms[r] = t;
        }
        struct stats s = stats_of(ms, reps);
        medians[v] = s.median;
        print_bandwidth(names[v], s, (double)n, copy_gbs, "of copy");
    }
    printf("\nshared-memory histogram / global atomics: %.1fx faster (the article saw about 3x on a T4)\n",
           medians[GLOBAL] / medians[SHARED]);
    printf("best GPU (16 B loads, 256 bins, %d blocks) vs CUB: %.2fx CUB's throughput\n", w.wide_blocks,
           medians[LIBRARY] / medians[WIDE]);
    printf("\nWhat it means: atomics on one address wait for each other. In global memory they queue in the L2\n"
           "cache; a histogram per block moves the queue into each SM's shared memory. The going-further kernel\n"
           "also counts all 256 byte values, so no `if` wraps its atomics, and it runs near the copy bandwidth.\n");
    if (n < (long long)dev.l2_bytes)
        printf("note: the text (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", n / 1e6);
    printf("wrote %s\n", csv_path);

    gpu_timer_destroy(&timer);
    CUDA_CHECK(cudaFree(dev_text));
    CUDA_CHECK(cudaFree(w.histo));
    CUDA_CHECK(cudaFree(w.temp));
    free(text);
    free(ms);
    return 0;
}
