/* blobs.cu: Part 2, Examples 2.5a and 2.5b, a device function and a 2D shared array, with and without
 * __syncthreads. Each thread computes the amplitude of its pixel with an inline device function, writes
 * it into a 16 x 16 shared tile, and then reads the tile back flipped: pixel (x, y) of the block takes
 * the value that thread (15 - x, 15 - y) wrote. That value comes from another warp, so without a barrier
 * the read can happen before the write.
 *   make ch2 && ./ch2_reduction/blobs        (two 1024 x 1024 images in output/ch2; make figures)
 *   compute-sanitizer --tool racecheck ./ch2_reduction/blobs     (the race, found by the tool)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/image.h"
#include "../common/stats.h"

enum { TILE = 16, SIDE = 1024 };

/* A device function: called from kernels, it can return a value (a kernel cannot). Inlining saves the
 * call; nvcc inlines small functions anyway, __forceinline__ makes it certain. */
__device__ __forceinline__ float amplitude(int ix, int iy)
{
    const float two_pi = 6.28318530718f;
    return (1.0f + sinf(two_pi * (ix - 64) / 256.0f)) * (1.0f + sinf(two_pi * (iy - 64) / 256.0f));
}

/* Example 2.5a: write the tile, wait for the whole block, read it flipped. */
__global__ void blobs_2d(float *image, int side)
{
    __shared__ float tile[TILE][TILE];
    int ix = threadIdx.x + blockIdx.x * blockDim.x, iy = threadIdx.y + blockIdx.y * blockDim.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = amplitude(ix, iy);
    __syncthreads();  /* every thread's write is done and visible before anyone reads */
    image[iy * side + ix] = tile[TILE - 1 - ty][TILE - 1 - tx];
}

/* Example 2.5b: the same without the barrier. The read of tile[15 - ty][15 - tx] races with the write by
 * the thread that owns that cell, in another warp: it may get the value, or whatever the shared memory
 * held before (another block's tile). compute-sanitizer's racecheck reports the hazard even on a run
 * where the image happens to come out right. */
__global__ void blobs_2d_wrong(float *image, int side)
{
    __shared__ float tile[TILE][TILE];
    int ix = threadIdx.x + blockIdx.x * blockDim.x, iy = threadIdx.y + blockIdx.y * blockDim.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = amplitude(ix, iy);
    image[iy * side + ix] = tile[TILE - 1 - ty][TILE - 1 - tx];
}

/* The image as the synced kernel must make it: each pixel holds the amplitude of the pixel mirrored
 * through the centre of its 16 x 16 tile. */
static double expected(int ix, int iy)
{
    int tile_x = ix / TILE * TILE, tile_y = iy / TILE * TILE;
    int source_x = tile_x + (TILE - 1 - ix % TILE), source_y = tile_y + (TILE - 1 - iy % TILE);
    return (1.0 + sin(2.0 * M_PI * (source_x - 64) / 256.0)) * (1.0 + sin(2.0 * M_PI * (source_y - 64) / 256.0));
}

static void save(const char *path, const float *image)
{
    unsigned char *rgb = (unsigned char *)host_alloc(3 * SIDE * SIDE);
    for (int i = 0; i < SIDE * SIDE; i++)
        colormap(image[i], 0.0f, 4.0f, rgb + 3 * i);  /* the amplitude runs from 0 to 4 */
    write_ppm(path, rgb, SIDE, SIDE);
    free(rgb);
    printf("wrote %s\n", path);
}

int main(int argc, char **argv)
{
    const char *output_dir = "output/ch2";
    int sync_only = 0;
    struct cli_option options[] = {
        {"-o", CLI_OUTPUT_DIR, &output_dir, 0, 0, "folder DIR for the two PPM images (default output/ch2)"},
        {"--sync-only", CLI_FLAG, &sync_only, 0, 0, "run only the correct kernel (racecheck must find nothing)"},
    };
    int device = cli_parse(argc, argv, "Part 2, Example 2.5: a device function, a shared tile, __syncthreads.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);

    size_t bytes = SIDE * SIDE * sizeof(float);
    float *image = (float *)host_alloc(bytes), *image_wrong = (float *)host_alloc(bytes), *dev_image;
    CUDA_CHECK(cudaMalloc(&dev_image, bytes));
    dim3 threads(TILE, TILE), blocks(SIDE / TILE, SIDE / TILE);
    blobs_2d<<<blocks, threads>>>(dev_image, SIDE);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(image, dev_image, bytes, cudaMemcpyDeviceToHost));

    /* sinf on the GPU is accurate to a few float ulps; with amplitudes up to 4, 1e-5 is a safe bound. */
    double worst = 0.0;
    for (int iy = 0; iy < SIDE; iy++)
        for (int ix = 0; ix < SIDE; ix++)
            worst = worst_of(worst, fabs(image[iy * SIDE + ix] - expected(ix, iy)));
    int failures = check(worst <= 1e-5, "with __syncthreads: max |GPU - CPU| = %.1e <= 1e-5", worst);
    char path[4096];
    snprintf(path, sizeof path, "%s/blobs_sync.ppm", output_dir);
    save(path, image);
    if (sync_only) {
        CUDA_CHECK(cudaFree(dev_image));
        free(image);
        free(image_wrong);
        return exit_status(failures);
    }

    /* Zero the picture first, so that every pixel shown is one the wrong kernel wrote. Its race is not on
     * this buffer but on the shared tile: a thread reads a slot before the thread that owns it wrote it. */
    CUDA_CHECK(cudaMemset(dev_image, 0, bytes));
    blobs_2d_wrong<<<blocks, threads>>>(dev_image, SIDE);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(image_wrong, dev_image, bytes, cudaMemcpyDeviceToHost));
    long differ = 0;
    for (int i = 0; i < SIDE * SIDE; i++)
        differ += memcmp(&image[i], &image_wrong[i], sizeof(float)) != 0;
    printf("without __syncthreads: %ld of %d pixels (%.1f%%) differ from the synced image%s\n", differ,
           SIDE * SIDE, 100.0 * differ / (SIDE * SIDE),
           differ ? "" : " this time: a race need not show on every run; racecheck finds it regardless");
    snprintf(path, sizeof path, "%s/blobs_nosync.ppm", output_dir);
    save(path, image_wrong);
    snprintf(path, sizeof path, "%s/blobs.csv", output_dir);  /* for the figure's caption */
    FILE *csv = csv_open(path, "side,pixels_differ");
    csv_row(csv, "%d,%ld", SIDE, differ);
    csv_close(csv);

    CUDA_CHECK(cudaFree(dev_image));
    free(image);
    free(image_wrong);
    return exit_status(failures);
}
