/* equalize.cu: going further, the course in one program: histogram equalisation of a grayscale picture.
 * Four kernels from four chapters: a shared-memory histogram (Example 4.4), a scan of its 256 bins into
 * the cumulative distribution (scan.cu's block scan), a lookup table from it, and the table applied to
 * every pixel by a 2D grid-stride kernel (Example 1.5). Grey level v becomes
 *   round(255 (cdf(v) - cdf_min) / (pixels - cdf_min)),  cdf_min the count of the darkest level present,
 * in integers, so the GPU's picture must equal the CPU's exactly. The levels then spread over 0..255.
 *   make ch4 && ./ch4_atomics_mutex/equalize               (chapter 1's low-contrast picture; -n 8192 timed)
 *   ./ch4_atomics_mutex/equalize --input photo.pgm -o out  (any binary PGM or PPM: its luma is equalised)
 * Writes DIR/equalize_before.pgm, DIR/equalize_after.pgm and DIR/equalize.csv; `make figures` draws them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/image.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 grey levels, and one block of 256 threads scans them: thread v owns level v. */
enum { LEVELS = 256, THREADS = 256, WARP = 32, WARPS = THREADS / WARP };
#define FULL_MASK 0xffffffffu

/* ==== Kernels ==== */

/* Example 4.4's histogram: each block counts its pixels in shared memory, then adds its 256 counts to
 * the global histogram (zeroed before), one atomic per level. */
__global__ void histogram_levels(const unsigned char *pixels, long long count, unsigned int *histogram)
{
    __shared__ unsigned int s_histogram[LEVELS];
    for (int v = threadIdx.x; v < LEVELS; v += blockDim.x)
        s_histogram[v] = 0;
    __syncthreads();
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < count;
         i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&s_histogram[pixels[i]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < LEVELS; v += blockDim.x)
        if (s_histogram[v] > 0)
            atomicAdd(&histogram[v], s_histogram[v]);
}

/* scan.cu's block scan, unchanged (tests/copies.t keeps it so): the exclusive prefix of `v` over the
 * block's threads, and the block's total. */
template <typename Sum>
__device__ Sum block_exclusive_scan(Sum v, Sum *block_total)
{
    __shared__ Sum warp_totals[WARPS];
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    Sum x = v;
#pragma unroll
    for (int d = 1; d < WARP; d *= 2) {
        Sum below = __shfl_up_sync(FULL_MASK, x, d);
        if (lane >= d)
            x += below;
    }
    if (lane == WARP - 1)
        warp_totals[warp] = x;
    __syncthreads();  /* every warp's total is written */
    if (warp == 0) {
        Sum t = lane < WARPS ? warp_totals[lane] : 0;
#pragma unroll
        for (int d = 1; d < WARPS; d *= 2) {
            Sum below = __shfl_up_sync(FULL_MASK, t, d);
            if (lane >= d)
                t += below;
        }
        if (lane < WARPS)
            warp_totals[lane] = t;
    }
    __syncthreads();  /* the warps' totals are scanned */
    *block_total = warp_totals[WARPS - 1];
    return (warp > 0 ? warp_totals[warp - 1] : 0) + x - v;
}

/* One block of 256 threads: cdf(v) = histogram[0] + ... + histogram[v], then the lookup table. Counts
 * are 64-bit: a picture may have more than 2^32 pixels of one level. */
__global__ void __launch_bounds__(THREADS) cdf_and_table(const unsigned int *histogram, unsigned long long *cdf,
                                                         unsigned char *table)
{
    __shared__ unsigned long long s_cdf_min;
    int v = threadIdx.x;
    unsigned long long count = histogram[v], total;
    unsigned long long c = block_exclusive_scan(count, &total) + count;  /* inclusive */
    cdf[v] = c;
    if (v == 0)
        s_cdf_min = total;
    __syncthreads();
    if (count > 0)
        atomicMin(&s_cdf_min, c);  /* the darkest level present: the smallest cdf of a level with pixels */
    __syncthreads();
    unsigned long long cdf_min = s_cdf_min, range = total - cdf_min;
    /* One level only: nothing to spread, the picture stays as it is. */
    table[v] = range == 0 ? (unsigned char)v : (unsigned char)(((c - cdf_min) * 255 + range / 2) / range);
}

/* Example 1.5's 2D grid-stride loop: rows outer, the threads of a block along x. The table sits in
 * shared memory, 256 bytes that every pixel looks up. */
__global__ void apply_table(const unsigned char *in, unsigned char *out, int width, int height,
                            const unsigned char *table)
{
    __shared__ unsigned char s_table[LEVELS];
    int t = threadIdx.x + threadIdx.y * blockDim.x;
    for (int v = t; v < LEVELS; v += blockDim.x * blockDim.y)
        s_table[v] = table[v];
    __syncthreads();
    int stride_x = blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < width; x += stride_x)
            out[(size_t)y * width + x] = s_table[in[(size_t)y * width + x]];
}

/* ==== CPU reference and host helpers ==== */

/* The same steps on the CPU, with the same integer arithmetic. */
static void equalize_cpu(const unsigned char *in, unsigned char *out, long long count, unsigned long long *cdf,
                         unsigned char *table)
{
    unsigned long long histogram[LEVELS] = {0}, c = 0, cdf_min = 0;
    for (long long i = 0; i < count; i++)
        histogram[in[i]]++;
    for (int v = 0; v < LEVELS; v++) {
        c += histogram[v];
        cdf[v] = c;
        if (cdf_min == 0 && histogram[v] > 0)
            cdf_min = c;
    }
    unsigned long long range = c - cdf_min;
    for (int v = 0; v < LEVELS; v++)
        table[v] = range == 0 ? (unsigned char)v : (unsigned char)(((cdf[v] - cdf_min) * 255 + range / 2) / range);
    for (long long i = 0; i < count; i++)
        out[i] = table[in[i]];
}

struct gpu_image {
    unsigned char *in, *out, *table;
    unsigned int *histogram;
    unsigned long long *cdf;
};

enum stage { HISTOGRAM, CDF_TABLE, APPLY, STAGES };
static const char *stage_names[STAGES] = {"histogram (4.4)", "scan + table", "apply (1.5, 2D)"};
static const char *stage_keys[STAGES] = {"histogram", "cdf_table", "apply"};  /* their rows' keys in --csv */

/* Queues the stages on stream 0; with a timer array, each stage is timed on its own. */
static void equalize_gpu(struct gpu_image *g, int width, int height, int blocks, struct gpu_timer *timers, float *ms)
{
    for (int s = 0; s < STAGES; s++) {
        if (timers)
            gpu_timer_start(&timers[s], 0);
        if (s == HISTOGRAM) {
            CUDA_CHECK(cudaMemsetAsync(g->histogram, 0, LEVELS * sizeof(unsigned int), 0));
            histogram_levels<<<blocks, 256>>>(g->in, (long long)width * height, g->histogram);
        } else if (s == CDF_TABLE) {
            cdf_and_table<<<1, THREADS>>>(g->histogram, g->cdf, g->table);
        } else {
            /* the article's launch */
            apply_table<<<dim3(64, 64), dim3(16, 16)>>>(g->in, g->out, width, height, g->table);
        }
        CHECK_LAUNCH();
        if (timers)
            ms[s] = gpu_timer_stop(&timers[s]);
    }
}

/* Equalises on the GPU and on the CPU and compares the cumulative distribution, the table and every
 * pixel; returns 1 if anything differs. */
static int equalize_and_check(const unsigned char *picture, unsigned char *result, int width, int height, int blocks,
                              unsigned long long *cdf)
{
    long long count = (long long)width * height;
    struct gpu_image g;
    CUDA_CHECK(cudaMalloc(&g.in, count));
    CUDA_CHECK(cudaMalloc(&g.out, count));
    CUDA_CHECK(cudaMalloc(&g.table, LEVELS));
    CUDA_CHECK(cudaMalloc(&g.histogram, LEVELS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&g.cdf, LEVELS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(g.in, picture, count, cudaMemcpyHostToDevice));
    equalize_gpu(&g, width, height, blocks, NULL, NULL);
    unsigned long long gpu_cdf[LEVELS];
    unsigned char gpu_table[LEVELS], table[LEVELS];
    CUDA_CHECK(cudaMemcpy(result, g.out, count, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gpu_cdf, g.cdf, sizeof gpu_cdf, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gpu_table, g.table, LEVELS, cudaMemcpyDeviceToHost));
    unsigned char *want = (unsigned char *)host_alloc(count);
    equalize_cpu(picture, want, count, cdf, table);
    long long differ = 0;
    for (long long i = 0; i < count; i++)
        differ += result[i] != want[i];
    int same = memcmp(gpu_cdf, cdf, sizeof gpu_cdf) == 0 && memcmp(gpu_table, table, LEVELS) == 0 && differ == 0;
    free(want);
    CUDA_CHECK(cudaFree(g.in));
    CUDA_CHECK(cudaFree(g.out));
    CUDA_CHECK(cudaFree(g.table));
    CUDA_CHECK(cudaFree(g.histogram));
    CUDA_CHECK(cudaFree(g.cdf));
    return check(same, "%d x %d: the GPU's cumulative distribution, table and picture equal the CPU's (%lld pixels "
                 "differ)", width, height, differ);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 8192;
    int reps = 21;
    const char *input = NULL, *output_dir = "output/ch4";
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 60000, "side of the square synthetic picture timed (default 8192)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        {"--input", CLI_INPUT_FILE, &input, 0, 0, "binary PGM or PPM FILE to equalise (default: chapter 1's picture)"},
        {"-o", CLI_OUTPUT_DIR, &output_dir, 0, 0,
         "folder DIR for the before/after PGM and the CSV (default output/ch4)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Going further: histogram equalisation, chapters 1, 2 and 4 in one program.",
                           options, COUNT_OF(options));
    results_to(results_path);

    /* Read the input before touching the GPU: a bad file is a usage error (exit 2). */
    int width = 512, height = 512, channels = 1;
    unsigned char *picture;
    if (input) {
        char error[512];
        unsigned char *bytes = read_pnm(input, &width, &height, &channels, error, sizeof error);
        if (!bytes) {
            fprintf(stderr, "%s: --input: %s\n", argv[0], error);
            return 2;
        }
        picture = (unsigned char *)host_alloc((size_t)width * height);
        for (size_t i = 0; i < (size_t)width * height; i++)  /* colour -> luma, rounded */
            picture[i] = channels == 1 ? bytes[i]
                                       : (unsigned char)(0.299f * bytes[3 * i] + 0.587f * bytes[3 * i + 1] +
                                                         0.114f * bytes[3 * i + 2] + 0.5f);
        free(bytes);
    } else {
        picture = (unsigned char *)host_alloc((size_t)width * height);  /* chapter 1's picture, as bytes */
        test_picture_bytes(picture, width, height);
    }
    struct device_info dev;
    device_start(device, &dev);
    int blocks = 2 * dev.sms;  /* a few blocks per SM: each adds its 256 counts once (histogram_sweep.cu) */

    /* The picture: equalise, check, write it with its histograms for the figure. */
    size_t pixels = (size_t)width * height;
    unsigned char *after = (unsigned char *)host_alloc(pixels);
    unsigned long long cdf[LEVELS];
    if (equalize_and_check(picture, after, width, height, blocks, cdf))
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/equalize_before.pgm", output_dir);
    write_pgm(path, picture, width, height);
    snprintf(path, sizeof path, "%s/equalize_after.pgm", output_dir);
    write_pgm(path, after, width, height);
    unsigned long long before_count[LEVELS] = {0}, after_count[LEVELS] = {0}, after_cdf = 0;
    for (size_t i = 0; i < pixels; i++) {
        before_count[picture[i]]++;
        after_count[after[i]]++;
    }
    snprintf(path, sizeof path, "%s/equalize.csv", output_dir);
    FILE *csv = csv_open(path, "level,before,after,cdf_before,cdf_after");
    int used_before = 0, used_after = 0;
    for (int v = 0; v < LEVELS; v++) {
        after_cdf += after_count[v];
        used_before += before_count[v] > 0;
        used_after += after_count[v] > 0;
        csv_row(csv, "%d,%llu,%llu,%.6f,%.6f", v, before_count[v], after_count[v], (double)cdf[v] / pixels,
                (double)after_cdf / pixels);
    }
    csv_close(csv);
    int lo = 0, hi = LEVELS - 1, median = 0, median_after = 0;
    while (before_count[lo] == 0)
        lo++;
    while (before_count[hi] == 0)
        hi--;
    for (unsigned long long c = 0; (c += before_count[median]) < (pixels + 1) / 2;)
        median++;
    for (unsigned long long c = 0; (c += after_count[median_after]) < (pixels + 1) / 2;)
        median_after++;
    printf("%d x %d picture: %d grey levels from %d to %d, median %d; after: %d levels from %d to %d, median %d\n",
           width, height, used_before, lo, hi, median, used_after, lo == hi ? lo : 0, lo == hi ? hi : 255,
           median_after);
    printf("wrote %s/equalize_before.pgm, equalize_after.pgm and equalize.csv\n", output_dir);

    /* The timing, on an n x n synthetic picture: each stage by events, the whole against the CPU. */
    n = size_to_fit(&dev, "-n", n, 2, 2, 3, 0);
    long long count = n * n;
    unsigned char *big = (unsigned char *)host_alloc(count), *big_after = (unsigned char *)host_alloc(count);
    test_picture_bytes(big, (int)n, (int)n);
    if (equalize_and_check(big, big_after, (int)n, (int)n, blocks, cdf))
        return 1;
    double copy_gbs = measure_copy_bandwidth(count > (1 << 26) ? (size_t)count : (size_t)1 << 26);
    struct gpu_image g;
    CUDA_CHECK(cudaMalloc(&g.in, count));
    CUDA_CHECK(cudaMalloc(&g.out, count));
    CUDA_CHECK(cudaMalloc(&g.table, LEVELS));
    CUDA_CHECK(cudaMalloc(&g.histogram, LEVELS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&g.cdf, LEVELS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(g.in, big, count, cudaMemcpyHostToDevice));
    struct gpu_timer timers[STAGES];
    for (int s = 0; s < STAGES; s++)
        gpu_timer_create(&timers[s]);
    double *ms[STAGES + 1];
    for (int s = 0; s <= STAGES; s++)
        ms[s] = (double *)host_alloc(reps * sizeof(double));
    /* Each run: the whole equalisation in the loop's window, then, outside it, again stage by stage, each
     * stage between the two events of its own timer. */
    struct timed_runs runs = timed_runs(ms[STAGES], reps, 0);
    while (timed_run(&runs)) {
        equalize_gpu(&g, (int)n, (int)n, blocks, NULL, NULL);
        timed_run_end(&runs);
        float stage_ms[STAGES];
        equalize_gpu(&g, (int)n, (int)n, blocks, timers, stage_ms);
        for (int s = 0; s < STAGES && runs.run >= 0; s++)
            ms[s][runs.run] = stage_ms[s];
    }
    unsigned char cpu_table[LEVELS];
    double t0 = wall_seconds();
    equalize_cpu(big, big_after, count, cdf, cpu_table);
    double cpu_ms = (wall_seconds() - t0) * 1e3;

    printf("\n%lld x %lld picture (%.0f MB), median of %d; limit: device copy %.0f GB/s\n", n, n, count / 1e6, reps,
           copy_gbs);
    double bytes_moved[STAGES] = {(double)count, 0.0, 2.0 * count};  /* histogram reads, apply reads and writes */
    for (int s = 0; s < STAGES; s++) {
        struct stats st = stats_of(ms[s], reps);
        if (bytes_moved[s] > 0) {
            print_bandwidth(stage_keys[s], stage_names[s], st, bytes_moved[s], copy_gbs, "of copy");
        } else {
            print_time(stage_keys[s], stage_names[s], st);
            printf("\n");
        }
    }
    struct stats all = stats_of(ms[STAGES], reps);
    print_time("whole", "the whole, one stream", all);
    printf("\n");
    printf("CPU (one core, the same steps): %.1f ms, %.0fx the GPU\n", cpu_ms, cpu_ms / all.median);
    record_value("cpu", "CPU (one core, the same steps)", cpu_ms, "ms");

    for (int s = 0; s < STAGES; s++)
        gpu_timer_destroy(&timers[s]);
    for (int s = 0; s <= STAGES; s++)
        free(ms[s]);
    CUDA_CHECK(cudaFree(g.in));
    CUDA_CHECK(cudaFree(g.out));
    CUDA_CHECK(cudaFree(g.table));
    CUDA_CHECK(cudaFree(g.histogram));
    CUDA_CHECK(cudaFree(g.cdf));
    free(big);
    free(big_after);
    free(picture);
    free(after);
    return exit_status(0);
}
