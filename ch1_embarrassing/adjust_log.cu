/* adjust_log.cu: Part 1, Example 1.5, a 2D grid-stride kernel: log correction of a grayscale image.
 * out = gain * log2(1 + in) lifts the dark values of an image in [0, 1] (slope 1.44 at black) and
 * compresses the bright ones. A 2D grid of 2D blocks walks the image with a stride in x and in y.
 *   make ch1 && ./ch1_embarrassing/adjust_log                  (512 x 512 picture, then 10000 x 10000 timing)
 *   ./ch1_embarrassing/adjust_log --input photo.pgm -o out     (any binary PGM/PPM)
 * Writes DIR/adjust_log_before.pgm and DIR/adjust_log_after.pgm; `make figures` shows them side by side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/image.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* ==== Kernels ==== */

/* Rows as the outer loop: a thread walks along a row, then jumps down by the grid's height. A warp of a
 * 16 x 16 block is two half-rows: 16 consecutive x on one y, then 16 on the next. Each half-warp reads 64
 * consecutive bytes, so the accesses are coalesced either way; the loop order only changes the order in
 * which each thread visits its pixels. */
__global__ void adjust_log_rows_outer(const float *in, float *out, int width, int height, float gain)
{
    int stride_x = blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < width; x += stride_x)
            out[(size_t)y * width + x] = gain * log2f(1.0f + in[(size_t)y * width + x]);
}

/* The same with the loops swapped: columns outer. */
__global__ void adjust_log_columns_outer(const float *in, float *out, int width, int height, float gain)
{
    int stride_x = blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < width; x += stride_x)
        for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
            out[(size_t)y * width + x] = gain * log2f(1.0f + in[(size_t)y * width + x]);
}

/* ==== Host helpers ==== */

static void to_bytes(const float *image, unsigned char *bytes, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        float v = image[i] < 0.0f ? 0.0f : image[i] > 1.0f ? 1.0f : image[i];
        bytes[i] = (unsigned char)(v * 255.0f + 0.5f);
    }
}

static double mean_of(const float *image, size_t count)
{
    double sum = 0.0;
    for (size_t i = 0; i < count; i++)
        sum += image[i];
    return sum / count;
}

enum version { ROWS_OUTER, COLUMNS_OUTER, VERSIONS };
static const char *names[VERSIONS] = {"rows outer", "columns outer"};
static const char *keys[VERSIONS] = {"rows_outer", "columns_outer"};  /* their rows' keys in --csv */

/* Queues one loop order on stream 0 with the article's launch: 16 x 16 threads per block, 64 x 64
 * blocks, whatever the image size. */
static void launch(enum version v, const float *in, float *out, int width, int height, float gain)
{
    dim3 threads_per_block(16, 16), blocks(64, 64);
    if (v == ROWS_OUTER)
        adjust_log_rows_outer<<<blocks, threads_per_block>>>(in, out, width, height, gain);
    else
        adjust_log_columns_outer<<<blocks, threads_per_block>>>(in, out, width, height, gain);
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 10000;
    int reps = 21;
    double gain = 1.0;
    const char *input = NULL, *output_dir = "output/ch1";
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 40000, "side of the square image timed for the loop orders (default 10000)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs of each kernel (default 21)"},
        {"--gain", CLI_DOUBLE, &gain, 0.01, 100, "gain of the correction (default 1)"},
        {"--input", CLI_INPUT_FILE, &input, 0, 0, "binary PGM or PPM FILE to correct (default: a synthetic picture)"},
        {"-o", CLI_OUTPUT_DIR, &output_dir, 0, 0, "folder DIR for the before/after PGM files (default output/ch1)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 1, Example 1.5: log correction with a 2D grid-stride kernel.",
                           options, COUNT_OF(options));
    results_to(results_path);

    /* Read the input before touching the GPU: a bad file is a usage error (exit 2). */
    int width = 512, height = 512, channels = 1;
    float *picture = NULL;
    if (input) {
        char error[512];
        unsigned char *bytes = read_pnm(input, &width, &height, &channels, error, sizeof error);
        if (!bytes) {
            fprintf(stderr, "%s: --input: %s\n", argv[0], error);
            return 2;
        }
        picture = (float *)host_alloc((size_t)width * height * sizeof(float));
        for (size_t i = 0; i < (size_t)width * height; i++)  /* colour -> luma, then [0, 1] */
            picture[i] = channels == 1 ? bytes[i] / 255.0f
                                       : (0.299f * bytes[3 * i] + 0.587f * bytes[3 * i + 1] +
                                          0.114f * bytes[3 * i + 2]) / 255.0f;
        free(bytes);
    } else {
        /* The course's low-contrast test picture (common/image.h): most of it below 0.15, detail hidden
         * in the shadows, a bright sun, and a grey ramp 0..1 along the bottom that shows the whole curve. */
        picture = (float *)host_alloc((size_t)width * height * sizeof(float));
        test_picture(picture, width, height);
    }
    struct device_info dev;
    device_start(device, &dev);

    size_t pixels = (size_t)width * height, bytes = pixels * sizeof(float);
    float *corrected = (float *)host_alloc(bytes), *dev_in, *dev_out;
    CUDA_CHECK(cudaMalloc(&dev_in, bytes));
    CUDA_CHECK(cudaMalloc(&dev_out, bytes));
    CUDA_CHECK(cudaMemcpy(dev_in, picture, bytes, cudaMemcpyHostToDevice));

    /* Check both kernels against the CPU in double. log2f is accurate to a couple of float ulps, and an
     * output is at most gain * 1, so 4e-7 * max(gain, 1) is a safe absolute bound. */
    int failures = 0;
    double tolerance = 4e-7 * (gain > 1.0 ? gain : 1.0);
    for (int v = 0; v < VERSIONS; v++) {
        CUDA_CHECK(cudaMemset(dev_out, 0xff, bytes));
        launch((enum version)v, dev_in, dev_out, width, height, (float)gain);
        CUDA_CHECK(cudaMemcpy(corrected, dev_out, bytes, cudaMemcpyDeviceToHost));
        double worst = 0.0;
        for (size_t i = 0; i < pixels; i++)
            worst = worst_of(worst, fabs(corrected[i] - gain * log2(1.0 + picture[i])));
        failures += check(worst <= tolerance, "%s, %d x %d: max |GPU - CPU| = %.2g <= %.2g", names[v], width, height,
                          worst, tolerance);
    }

    unsigned char *gray = (unsigned char *)host_alloc(pixels);
    char path[4096];
    snprintf(path, sizeof path, "%s/adjust_log_before.pgm", output_dir);
    to_bytes(picture, gray, pixels);
    write_pgm(path, gray, width, height);
    snprintf(path, sizeof path, "%s/adjust_log_after.pgm", output_dir);
    to_bytes(corrected, gray, pixels);
    write_pgm(path, gray, width, height);
    printf("mean brightness %.3f before, %.3f after; wrote %s/adjust_log_before.pgm and _after.pgm\n",
           mean_of(picture, pixels), mean_of(corrected, pixels), output_dir);
    snprintf(path, sizeof path, "%s/adjust_log.csv", output_dir);  /* for the figure's caption */
    FILE *csv = csv_open(path, "width,height,gain,mean_before,mean_after");
    csv_row(csv, "%d,%d,%g,%.4f,%.4f", width, height, gain, mean_of(picture, pixels), mean_of(corrected, pixels));
    csv_close(csv);
    free(gray);
    CUDA_CHECK(cudaFree(dev_in));
    CUDA_CHECK(cudaFree(dev_out));

    /* The loop-order question on an n x n image: 4 bytes read and 4 written per pixel. */
    /* Two n x n float images on the GPU and two on the host. The copy probe runs first, with the
     * memory the images will take still free. */
    n = size_to_fit(&dev, "-n", n, 2, 2 * sizeof(float), 2 * sizeof(float), 0);
    size_t big_pixels = (size_t)n * n, big_bytes = big_pixels * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(big_bytes);
    float *big = (float *)host_alloc(big_bytes), *big_rows = (float *)host_alloc(big_bytes);
    test_picture(big, (int)n, (int)n);
    CUDA_CHECK(cudaMalloc(&dev_in, big_bytes));
    CUDA_CHECK(cudaMalloc(&dev_out, big_bytes));
    CUDA_CHECK(cudaMemcpy(dev_in, big, big_bytes, cudaMemcpyHostToDevice));
    /* The two orders compute the same function per pixel: their outputs must be identical. */
    launch(ROWS_OUTER, dev_in, dev_out, (int)n, (int)n, (float)gain);
    CUDA_CHECK(cudaMemcpy(big_rows, dev_out, big_bytes, cudaMemcpyDeviceToHost));
    launch(COLUMNS_OUTER, dev_in, dev_out, (int)n, (int)n, (float)gain);
    CUDA_CHECK(cudaMemcpy(big, dev_out, big_bytes, cudaMemcpyDeviceToHost));
    size_t differ = 0;
    for (size_t i = 0; i < big_pixels; i++)
        differ += big[i] != big_rows[i];
    failures += check(differ == 0, "%lld x %lld: the two loop orders give identical images (%zu differ)", n, n,
                      differ);
    if (failures)
        return 1;

    printf("\n%lld x %lld image, %d runs each (kernel time; 8 bytes per pixel; limit = copy, %.0f GB/s):\n",
           n, n, reps, copy_gbs);
    double *ms = (double *)host_alloc(reps * sizeof(double)), medians[VERSIONS];
    for (int v = 0; v < VERSIONS; v++) {
        struct timed_runs runs = timed_runs(ms, reps, 0);
        while (timed_run(&runs))
            launch((enum version)v, dev_in, dev_out, (int)n, (int)n, (float)gain);
        struct stats s = stats_of(ms, reps);
        medians[v] = s.median;
        print_bandwidth(keys[v], names[v], s, 2.0 * big_bytes, copy_gbs, "of copy");
    }
    printf("columns outer / rows outer = %.2f (the article saw about 1.10 on its GPU)\n",
           medians[COLUMNS_OUTER] / medians[ROWS_OUTER]);
    if (2 * big_bytes < dev.l2_bytes)
        printf("note: the image fits in the %.0f MB L2 cache: use -n 10000 to time DRAM.\n", dev.l2_bytes / 1e6);

    free(ms);
    CUDA_CHECK(cudaFree(dev_in));
    CUDA_CHECK(cudaFree(dev_out));
    free(big);
    free(big_rows);
    free(picture);
    free(corrected);
    return exit_status(0);
}
