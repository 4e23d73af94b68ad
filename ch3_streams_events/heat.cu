/* heat.cu: going further, heat diffusion on a plate, on one GPU: the Jacobi iteration of the Laplace
 * equation, the stencil that heat_mpi.cu splits over several GPUs.
 * An N x N plate has its top edge held at 1 and its other edges at 0. In each step every inside point
 * becomes the mean of its four neighbours, read from the last step's field and written to another
 * (two buffers, swapped); repeated, the heat spreads down from the hot edge until the field stops
 * changing. Each point is read once and written once per step (its neighbours come from the caches),
 * so the step is bound by memory: it is timed against the copy bandwidth.
 *   make ch3 && ./ch3_streams_events/heat           (N = 8192, 0.5 GB; a 256 x 256 plate for the picture)
 *   ./ch3_streams_events/heat -n 16384 --steps 200 -o output/ch3
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

/* The step: blocks of STEP_THREADS threads side by side in a row, each thread STEP_ROWS rows down its
 * column (a warp reads 32 neighbouring floats of a row: 128 bytes, coalesced). max_change: 32 x 8. */
enum { STEP_THREADS = 128, STEP_ROWS = 16, BLOCK_X = 32, BLOCK_Y = 8 };
/* The picture: a 256 x 256 plate after 1/600, 1/60, 1/6 and all of --picture steps, side by side (the
 * heat needs about side^2 steps to cross the plate: Jacobi is slow to converge). */
enum { PICTURE_SIDE = 256, SNAPSHOTS = 4 };
static const int snapshot_share[SNAPSHOTS] = {600, 60, 6, 1};

/* ==== Kernels ==== */

/* One Jacobi step on rows [first, last) of a plate n points wide. Each thread walks down STEP_ROWS rows of
 * its column, keeping the point above and its own in registers, so that memory is read about once per
 * point (the left and right neighbours come from the row its warp just read, in L1). The four
 * neighbours are added in a fixed order, then multiplied once, so that the CPU and every split of the
 * plate give the same bits (nothing here can become a fused multiply-add). Columns 0 and n - 1 are
 * edges, never written. */
__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int n, int first, int last)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = first + blockIdx.y * STEP_ROWS;
    if (col < 1 || col >= n - 1 || row >= last)
        return;
    int end = row + STEP_ROWS < last ? row + STEP_ROWS : last;
    long long i = (long long)row * n + col;
    float up = in[i - n], mid = in[i];
    for (; row < end; row++, i += n) {
        float down = in[i + n];
        out[i] = 0.25f * ((up + down) + (in[i - 1] + in[i + 1]));
        up = mid;
        mid = down;
    }
}

/* The largest change of a point between two fields, over rows [first, last): a maximum is exact in any
 * order, so every split of the plate finds the same one. Non-negative floats order as their bits do, so
 * atomicMax on the bits as unsigned finds the largest. */
__global__ void max_change(const float *a, const float *b, int n, int first, int last, unsigned *result)
{
    __shared__ unsigned block_max;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_max = 0;
    __syncthreads();
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = first + blockIdx.y * blockDim.y + threadIdx.y;
    if (row < last && col < n) {
        long long i = (long long)row * n + col;
        atomicMax(&block_max, __float_as_uint(fabsf(a[i] - b[i])));
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0)
        atomicMax(result, block_max);
}

/* ==== CPU reference and host helpers ==== */

/* The plate before the first step: top edge 1, everything else 0. */
static void start_plate(float *plate, int n)
{
    memset(plate, 0, (size_t)n * n * sizeof(float));
    for (int col = 0; col < n; col++)
        plate[col] = 1.0f;
}

/* The CPU's steps, the same arithmetic in the same order as jacobi_step. Returns the field after `steps`. */
static float *cpu_steps(float *a, float *b, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        for (int row = 1; row < n - 1; row++)
            for (int col = 1; col < n - 1; col++) {
                long long i = (long long)row * n + col;
                b[i] = 0.25f * ((a[i - n] + a[i + n]) + (a[i - 1] + a[i + 1]));
            }
        float *t = a;
        a = b, b = t;
    }
    return a;
}

static dim3 step_grid(int n, int rows)
{
    return dim3((unsigned)ceil_div(n, STEP_THREADS), (unsigned)ceil_div(rows, STEP_ROWS));
}

static dim3 grid_for(int n, int rows)
{
    return dim3((unsigned)ceil_div(n, BLOCK_X), (unsigned)ceil_div(rows, BLOCK_Y));
}

/* `steps` steps on the GPU from the field in *a; on return *a holds the newest field. */
static void gpu_steps(float **a, float **b, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        jacobi_step<<<step_grid(n, n - 2), STEP_THREADS>>>(*a, *b, n, 1, n - 1);
        float *t = *a;
        *a = *b, *b = t;
    }
    CHECK_LAUNCH();
}

/* Two device buffers holding the starting plate (both: the edges are never written). */
static void gpu_plate(float **a, float **b, const float *plate, int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    CUDA_CHECK(cudaMalloc(a, bytes));
    CUDA_CHECK(cudaMalloc(b, bytes));
    CUDA_CHECK(cudaMemcpy(*a, plate, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(*b, plate, bytes, cudaMemcpyHostToDevice));
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 8192;
    int steps = 100, reps = 11, picture_steps = 60000;
    const char *output_dir = "output/ch3";
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 3, 46000, "side of the timed plate in points (default 8192)"},
        {"--steps", CLI_INT, &steps, 1, 100000, "steps in each timed run (default 100)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs (default 11)"},
        {"--picture", CLI_INT, &picture_steps, 100, 1000000, "steps of the picture's plate (default 60000)"},
        {"-o", CLI_OUTPUT_DIR, &output_dir, 0, 0,
         "folder DIR for heat.ppm and heat_convergence.csv (default output/ch3)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Heat diffusion on a plate: Jacobi steps of the Laplace equation on one GPU.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 2, 2 * sizeof(float), sizeof(float), 0);  /* two fields on the GPU */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);

    /* Check first: plates of 3 (one inside point), 4, a warp and one, a block and more, after 1, 7 and
     * 100 steps, to the bit against the CPU. */
    int failures = 0;
    const int sides[] = {3, 4, 33, 130, 257}, step_counts[] = {1, 7, 100};
    for (int k = 0; k < COUNT_OF(sides); k++)
        for (int j = 0; j < COUNT_OF(step_counts); j++) {
            int m = sides[k], s = step_counts[j];
            float *p = (float *)host_alloc((size_t)m * m * sizeof(float)),
                  *q = (float *)host_alloc((size_t)m * m * sizeof(float));
            float *got = (float *)host_alloc((size_t)m * m * sizeof(float)), *dev_a, *dev_b;
            start_plate(p, m);
            gpu_plate(&dev_a, &dev_b, p, m);
            gpu_steps(&dev_a, &dev_b, m, s);
            CUDA_CHECK(cudaMemcpy(got, dev_a, (size_t)m * m * sizeof(float), cudaMemcpyDeviceToHost));
            memcpy(q, p, (size_t)m * m * sizeof(float));
            const float *want = cpu_steps(p, q, m, s);
            failures += check(memcmp(got, want, (size_t)m * m * sizeof(float)) == 0,
                              "%d x %d plate, %d steps: the GPU's field equals the CPU's, bit for bit", m, m, s);
            CUDA_CHECK(cudaFree(dev_a));
            CUDA_CHECK(cudaFree(dev_b));
            free(p), free(q), free(got);
        }
    if (failures)
        return 1;

    /* The picture: a 256 x 256 plate at four moments, side by side, and the largest change of a point
     * every 100 steps, which falls as the field settles. */
    int side = PICTURE_SIDE;
    float *plate = (float *)host_alloc((size_t)side * side * sizeof(float)), *dev_a, *dev_b;
    unsigned char *rgb = (unsigned char *)host_alloc((size_t)3 * SNAPSHOTS * side * side);
    unsigned *dev_max, change_bits;
    CUDA_CHECK(cudaMalloc(&dev_max, sizeof(unsigned)));
    start_plate(plate, side);
    gpu_plate(&dev_a, &dev_b, plate, side);
    char path[1024];
    snprintf(path, sizeof path, "%s/heat_convergence.csv", output_dir);
    FILE *csv = csv_open(path, "step,max_change");
    int done = 0, shot_steps[SNAPSHOTS];
    for (int shot = 0; shot < SNAPSHOTS; shot++) {
        while (done < picture_steps / snapshot_share[shot]) {
            gpu_steps(&dev_a, &dev_b, side, 99);
            CUDA_CHECK(cudaMemset(dev_max, 0, sizeof(unsigned)));
            jacobi_step<<<step_grid(side, side - 2), STEP_THREADS>>>(dev_a, dev_b, side, 1, side - 1);
            max_change<<<grid_for(side, side), dim3(BLOCK_X, BLOCK_Y)>>>(dev_a, dev_b, side, 0, side, dev_max);
            CHECK_LAUNCH();
            float *t = dev_a;
            dev_a = dev_b, dev_b = t;
            done += 100;
            CUDA_CHECK(cudaMemcpy(&change_bits, dev_max, sizeof(unsigned), cudaMemcpyDeviceToHost));
            float change;
            memcpy(&change, &change_bits, sizeof change);
            csv_row(csv, "%d,%.6g", done, change);
        }
        shot_steps[shot] = done;
        CUDA_CHECK(cudaMemcpy(plate, dev_a, (size_t)side * side * sizeof(float), cudaMemcpyDeviceToHost));
        for (int row = 0; row < side; row++)
            for (int col = 0; col < side; col++)
                colormap(plate[row * side + col], 0.0f, 1.0f,
                         rgb + 3 * ((size_t)row * SNAPSHOTS * side + shot * side + col));
    }
    csv_close(csv);
    printf("wrote %s\n", path);
    snprintf(path, sizeof path, "%s/heat.ppm", output_dir);
    write_ppm(path, rgb, SNAPSHOTS * side, side);
    printf("wrote %s: a %d x %d plate after %d, %d, %d and %d steps\n", path, side, side, shot_steps[0],
           shot_steps[1], shot_steps[2], shot_steps[3]);
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    free(plate), free(rgb);

    /* Time `steps` steps on the N x N plate, reps times. A step reads and writes every inside point. */
    plate = (float *)host_alloc((size_t)n * n * sizeof(float));
    start_plate(plate, (int)n);
    gpu_plate(&dev_a, &dev_b, plate, (int)n);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs))
        gpu_steps(&dev_a, &dev_b, (int)n, steps);
    for (int r = 0; r < reps; r++)
        ms[r] /= steps;  /* a step's time */
    struct stats step = stats_of(ms, reps);
    double bytes = 2.0 * sizeof(float) * (n - 2) * (n - 2);
    printf("\n%lld x %lld plate (%.2f GB a field), %d steps a run, %d runs; limit = device-to-device copy %.0f GB/s\n",
           n, n, n * n * 4.0 / 1e9, steps, reps, copy_gbs);
    print_bandwidth("jacobi_step", "one Jacobi step", step, bytes, copy_gbs, "of copy");
    printf("\nWhat it means: a step reads each point once and writes it once, like a copy; its four neighbours\n"
           "are read again from L1 and L2, not from memory, so the step runs close to the copy bandwidth. A\n"
           "plate split over GPUs (heat_mpi) must in addition send each neighbour its boundary rows every step.\n");
    if (2 * n * n * sizeof(float) < dev.l2_bytes)
        printf("note: the two fields (%.1f MB) fit in the L2 cache; the steps read them from there.\n",
               8.0 * n * n / 1e6);
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFree(dev_max));
    free(plate), free(ms);
    return exit_status(0);
}
