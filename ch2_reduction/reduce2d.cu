/* reduce2d.cu: Part 2, Example 2.4, reducing a 2D array with a 2D grid and a 1D shared array.
 * Each thread walks the array with a 2D grid-stride loop, then the block's 16 x 16 threads number
 * themselves linearly (tid = x + 16 y) to run the 1D tree of better.cu over a shared array of 256.
 * The article names the x and y strides the wrong way round, which goes unnoticed on its square grid.
 *   make ch2 && ./ch2_reduction/reduce2d                    (20000 x 20000 float32, as in the article)
 *   ./ch2_reduction/reduce2d --grid-x 128 --grid-y 32       (a non-square grid: the article's bug shows)
 */
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>  /* only for the library comparison */

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* The grid's blocks each leave a partial sum that the host adds: 2^24 of them (64 MB) is the most the
 * options may ask for. 65535 x 65535 blocks would need 17 GB of partial sums. */
enum { MAX_THREADS = 1024, MAX_BLOCKS = 1 << 24 };

/* ==== Kernels ==== */

/* x is the column (threadIdx.x runs along a row, so a warp reads consecutive addresses), y the row. */
__global__ void reduce2d(const float *array, int rows, int cols, float *partial_sums)
{
    __shared__ float s_block[MAX_THREADS];
    int ix = threadIdx.x + blockIdx.x * blockDim.x, iy = threadIdx.y + blockIdx.y * blockDim.y;
    int threads_per_grid_x = blockDim.x * gridDim.x, threads_per_grid_y = blockDim.y * gridDim.y;
    float s_thread = 0.0f;
    for (int row = iy; row < rows; row += threads_per_grid_y)
        for (int col = ix; col < cols; col += threads_per_grid_x)
            s_thread += array[(size_t)row * cols + col];

    int tid = threadIdx.x + blockDim.x * threadIdx.y;  /* linear thread id inside the block */
    int block_threads = blockDim.x * blockDim.y;       /* a power of two here, checked in main */
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = block_threads / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();  /* outside the if: every thread must reach it */
    }
    if (tid == 0)
        partial_sums[blockIdx.x + gridDim.x * blockIdx.y] = s_block[0];  /* a 2D array of partial sums */
}

/* The article's loops: the row loop steps by the grid's x extent and the column loop by its y extent.
 * On a square grid the two are equal and nothing shows; on any other grid rows are skipped or counted
 * twice. Kept to show the fault, not to be used. */
__global__ void reduce2d_swapped_strides(const float *array, int rows, int cols, float *partial_sums)
{
    __shared__ float s_block[MAX_THREADS];
    int ix = threadIdx.x + blockIdx.x * blockDim.x, iy = threadIdx.y + blockIdx.y * blockDim.y;
    int threads_per_grid_x = blockDim.x * gridDim.x, threads_per_grid_y = blockDim.y * gridDim.y;
    float s_thread = 0.0f;
    for (int row = iy; row < rows; row += threads_per_grid_x)      /* should be ..._y */
        for (int col = ix; col < cols; col += threads_per_grid_y)  /* should be ..._x */
            s_thread += array[(size_t)row * cols + col];
    int tid = threadIdx.x + blockDim.x * threadIdx.y, block_threads = blockDim.x * blockDim.y;
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = block_threads / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x + gridDim.x * blockIdx.y] = s_block[0];
}

/* ==== Host helpers ==== */

struct shape {
    const char *key, *name;  /* its row's key in --csv, its printed name */
    dim3 threads, blocks;
};

enum version { REDUCE2D, SWAPPED_STRIDES, LIBRARY, VERSIONS };
static const char *names[VERSIONS] = {"reduce2d", "the article's swapped strides", "cub::DeviceReduce::Sum, raveled"};

struct buffers {
    const float *array;
    int rows, cols;
    float *partial_sums, *sum;  /* one per block of the kernels; CUB's result */
    void *temp;                 /* CUB's scratch */
    size_t temp_bytes;
};

/* Queues one version on stream 0: the kernels on the launch shape s, CUB on the array seen as one 1D
 * array of rows x cols elements (the article's "we could always reduce array2d.ravel()"). */
static void launch(enum version v, struct shape s, const struct buffers *b)
{
    switch (v) {
    case REDUCE2D:
        reduce2d<<<s.blocks, s.threads>>>(b->array, b->rows, b->cols, b->partial_sums);
        break;
    case SWAPPED_STRIDES:
        reduce2d_swapped_strides<<<s.blocks, s.threads>>>(b->array, b->rows, b->cols, b->partial_sums);
        break;
    default: {
        size_t temp_bytes = b->temp_bytes;  /* CUB takes the size by (C++) reference */
        CUDA_CHECK(cub::DeviceReduce::Sum(b->temp, temp_bytes, b->array, b->sum, (long long)b->rows * b->cols));
    }
    }
    CHECK_LAUNCH();
}

/* The sum the last launch made: the blocks' partial sums added on the host in double, or CUB's. */
static double result(enum version v, struct shape s, const struct buffers *b, float *host_partials)
{
    if (v == LIBRARY) {
        float sum = 0.0f;
        CUDA_CHECK(cudaMemcpy(&sum, b->sum, sizeof sum, cudaMemcpyDeviceToHost));
        return sum;
    }
    int count = s.blocks.x * s.blocks.y;
    CUDA_CHECK(cudaMemcpy(host_partials, b->partial_sums, count * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0.0;
    for (int i = 0; i < count; i++)
        sum += host_partials[i];
    return sum;
}

/* Times one version, kernel alone by events: a warm-up, then reps runs. */
static struct stats time_launch(enum version v, struct shape s, const struct buffers *b, double *ms, int reps)
{
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs))
        launch(v, s, b);
    return stats_of(ms, reps);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long rows = 20000, cols = 0;
    int grid_x = 64, grid_y = 64, reps = 21;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &rows, 1, 200000, "rows of the array (default 20000, the article's)"},
        {"--cols", CLI_SIZE, &cols, 1, 200000, "columns (default: as many as rows)"},
        {"--grid-x", CLI_INT, &grid_x, 1, 65535, "blocks along x, the columns (default 64)"},
        {"--grid-y", CLI_INT, &grid_y, 1, 65535, "blocks along y, the rows (default 64)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 2, Example 2.4: 2D reduction with a 1D shared array.", options,
                           COUNT_OF(options));
    results_to(results_path);
    int square = cols == 0;
    if (square)
        cols = rows;
    if (rows * cols > 2147483647LL)
        cli_usage_error(argv[0], "%lld x %lld elements is more than this example's 2^31 - 1", rows, cols);
    if ((long long)grid_x * grid_y > MAX_BLOCKS)
        cli_usage_error(argv[0], "--grid-x %d x --grid-y %d = %lld blocks; at most %d (one partial sum each, added "
                        "on the host)", grid_x, grid_y, (long long)grid_x * grid_y, MAX_BLOCKS);
    struct device_info dev;
    device_start(device, &dev);
    /* The array, 4 bytes an element on the GPU and on the host: rows x rows, or rows of --cols; and the
     * article shape's partial sums (up to 64 MB at MAX_BLOCKS). */
    double partials = (double)grid_x * grid_y * sizeof(float);
    if (square)
        cols = rows = size_to_fit(&dev, "-n", rows, 2, sizeof(float), sizeof(float), partials);
    else
        rows = size_to_fit(&dev, "-n", rows, 1, cols * sizeof(float), cols * sizeof(float), partials);
    long long n = rows * cols;
    size_t bytes = n * sizeof(float);

    /* The launch shapes to time: the article's, then two that show what limits it (see README). The
     * last is one wave: as many 256-thread blocks as the SMs hold at once (8 per SM where an SM holds
     * 2048 threads, 4 on a T4). */
    int wave = dev.threads_per_sm / 256 * dev.sms;
    struct shape shapes[] = {
        {"article", "article: 16x16 threads, 64x64 blocks", dim3(16, 16), dim3(grid_x, grid_y)},
        {"threads_32x8", "32x8 threads, 64x64 blocks", dim3(32, 8), dim3(64, 64)},
        {"one_wave", "32x8 threads, one wave of blocks", dim3(32, 8), dim3(1, wave)},
    };
    long long most_blocks = 0;
    for (int k = 0; k < COUNT_OF(shapes); k++)
        if ((long long)shapes[k].blocks.x * shapes[k].blocks.y > most_blocks)
            most_blocks = (long long)shapes[k].blocks.x * shapes[k].blocks.y;

    float *a = (float *)host_alloc(bytes), *host_partials = (float *)host_alloc(most_blocks * sizeof(float));
    double *ms = (double *)host_alloc(reps * sizeof(double));
    double scale = 2.0 / ((double)n * (n + 1));  /* arange from 1, scaled to sum 1 */
    for (long long i = 0; i < n; i++)
        a[i] = (float)((i + 1) * scale);
    double want = 0.0;
    for (long long i = 0; i < n; i++)
        want += a[i];
    struct buffers b;
    b.rows = (int)rows;
    b.cols = (int)cols;
    float *dev_array;
    CUDA_CHECK(cudaMalloc(&dev_array, bytes));
    CUDA_CHECK(cudaMalloc(&b.partial_sums, most_blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b.sum, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dev_array, a, bytes, cudaMemcpyHostToDevice));
    b.array = dev_array;
    b.temp = NULL;
    b.temp_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, b.temp_bytes, b.array, b.sum, n));
    CUDA_CHECK(cudaMalloc(&b.temp, b.temp_bytes));
    printf("%lld x %lld float32 (%.2f GB)\n", rows, cols, bytes / 1e9);

    /* Checks. Each element passes through its thread's additions (elements per thread) and the tree
     * (log2 of the block's threads, at most TREE_ADDITIONS); for positive terms the relative error is at
     * most that many times 2^-24. CUB as in library.cu. */
    enum { TREE_ADDITIONS = 10, CUB_TREE_ADDITIONS = 20 };
    int failures = 0;
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        struct shape sh = shapes[k];
        long long per_thread = ceil_div(rows, sh.threads.y * sh.blocks.y) * ceil_div(cols, sh.threads.x * sh.blocks.x);
        double tolerance = (per_thread + TREE_ADDITIONS) * FLOAT_ROUNDING;
        launch(REDUCE2D, sh, &b);
        double got = result(REDUCE2D, sh, &b, host_partials);
        failures += check(relative_error(got, want) <= tolerance, "%s: %.9g vs CPU %.9g, relative error %.1e <= %.1e",
                          sh.name, got, want, relative_error(got, want), tolerance);
    }
    long long resident = (long long)dev.sms * dev.threads_per_sm;
    double cub_tolerance = (ceil_div(n, resident) + CUB_TREE_ADDITIONS) * FLOAT_ROUNDING;
    launch(LIBRARY, shapes[0], &b);
    double got = result(LIBRARY, shapes[0], &b, host_partials);
    failures += check(relative_error(got, want) <= cub_tolerance, "%s: %.9g, relative error %.1e <= %.1e",
                      names[LIBRARY], got, relative_error(got, want), cub_tolerance);

    /* The article's swapped strides, on the same grid as ours: a demonstration, not a check. */
    launch(SWAPPED_STRIDES, shapes[0], &b);
    double swapped = result(SWAPPED_STRIDES, shapes[0], &b, host_partials);
    int swapped_right = relative_error(swapped, want) < 1e-3;
    printf("article's swapped strides on a %d x %d grid: %.9g, %s\n", grid_x, grid_y, swapped,
           swapped_right ? "right here because the grid is square (try --grid-x 128 --grid-y 32)"
                         : "WRONG: rows skipped or counted twice, as expected on a non-square grid");
    if (failures)
        return 1;

    /* Timing: kernel alone by events; CUB first, as the reference for the kernels' shapes. Each reads
     * 4 bytes an element. */
    struct stats cub = time_launch(LIBRARY, shapes[0], &b, ms, reps);  /* CUB ignores the shape */
    double cub_gbs = bytes / (cub.median * 1e-3) / 1e9;
    printf("\nkernel time, %d runs each, against CUB on the same %lld elements:\n", reps, n);
    for (int k = 0; k < COUNT_OF(shapes); k++)
        print_bandwidth(shapes[k].key, shapes[k].name, time_launch(REDUCE2D, shapes[k], &b, ms, reps), bytes, cub_gbs,
                        "of CUB");
    print_bandwidth("cub", names[LIBRARY], cub, bytes, 0, "");
    print_article("Part 2, 20000 x 20000 on Colab, 16 x 16 threads, 64 x 64 blocks, host clock with the copy of the "
                  "partial sums: 11 +- 0 ms");
    if (bytes < dev.l2_bytes)
        printf("note: the array (%.1f MB) fits in the L2 cache; repeated runs read it from there.\n", bytes / 1e6);

    CUDA_CHECK(cudaFree(b.temp));
    CUDA_CHECK(cudaFree(b.sum));
    CUDA_CHECK(cudaFree(dev_array));
    CUDA_CHECK(cudaFree(b.partial_sums));
    free(a);
    free(host_partials);
    free(ms);
    return exit_status(0);
}
