/* shared.cu: the French page, "Améliorer les performances en utilisant la mémoire partagée": the product
 * computed tile by tile. A block of 32 x 32 threads computes a 32 x 32 tile of C. In each step it copies
 * a 32 x 32 tile of A and one of B into shared memory (one element per thread), waits, and every thread
 * does 32 multiply-adds from shared memory. Each element of A and B is read from global memory by 32
 * times fewer threads than in naive.cu. It is timed against naive.cu's two kernels: the page's, which
 * adds into C in global memory at every step, and the first correction, the sum in a register. The page's
 * kernel assumed n a multiple of 32; here the loads outside the matrices put 0 in the tile and the stores
 * are guarded, so any n works.
 * Going further, a third kernel keeps the 32 x 32 tiles but gives each thread four rows of C.
 *   make ch5 && ./ch5_matmul/shared             (n = 10112, the page's size; all four, same run)
 *   ./ch5_matmul/shared -n 10000
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

enum { TILE = 32 };

/* ==== Kernels ==== */

/* naive.cu's two kernels, copied (tests/copies.t keeps them equal): C = A B with A n x p, B p x q; here
 * p = q = n. Blocks of 32 x 32 threads; naive.cu says why the launch bound. The page's, which adds into
 * C at every step (C must hold zeros first): */
__global__ void __launch_bounds__(1024) matmul_naive(const long long *A, const long long *B, long long *C, int n,
                                                     int p, int q)
{
    int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;
    int bw = blockDim.x, bh = blockDim.y;
    int x = tx + bx * bw;  /* column of C */
    int y = ty + by * bh;  /* row of C */
    if (x >= q || y >= n)  /* the grid overhangs C: these threads have no element */
        return;
    for (int i = 0; i < p; i++)
        C[(size_t)y * q + x] += A[(size_t)y * p + i] * B[(size_t)i * q + x];
}

/* The first correction, the sum in a register: */
__global__ void __launch_bounds__(1024) matmul_register(const long long *A, const long long *B, long long *C, int n,
                                                        int p, int q)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;  /* column of C */
    int y = threadIdx.y + blockIdx.y * blockDim.y;  /* row of C */
    if (x >= q || y >= n)
        return;
    long long acc = 0;
    for (int i = 0; i < p; i++)
        acc += A[(size_t)y * p + i] * B[(size_t)i * q + x];
    C[(size_t)y * q + x] = acc;
}

/* The page's tiled kernel, for any n. */
__global__ void __launch_bounds__(1024) matmul_shared(const long long *A, const long long *B, long long *C, int n)
{
    __shared__ long long sA[TILE][TILE], sB[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = tx + blockIdx.x * TILE, y = ty + blockIdx.y * TILE;  /* this thread's column and row of C */
    long long acc = 0;
    for (int t = 0; t < ceil_div(n, TILE); t++) {  /* the last tile may hang over the edge */
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        /* Outside the matrices, load 0: it adds nothing to the sums. Every thread still takes part in
         * the loads and the barriers, so no __syncthreads is skipped by some threads of the block. */
        sA[ty][tx] = y < n && a_col < n ? A[(size_t)y * n + a_col] : 0;
        sB[ty][tx] = b_row < n && x < n ? B[(size_t)b_row * n + x] : 0;
        __syncthreads();  /* both tiles complete before anyone reads them */
        for (int j = 0; j < TILE; j++)
            acc += sA[ty][j] * sB[j][tx];
        __syncthreads();  /* everyone is done with the tiles before the next step overwrites them */
    }
    if (x < n && y < n)
        C[(size_t)y * n + x] = acc;
}

/* Going further: the same 32 x 32 tiles with 32 x 8 threads, each computing four elements of C, in
 * rows ty, ty + 8, ty + 16 and ty + 24 of the tile. One value of B from shared memory now serves four
 * multiply-adds (1.25 shared loads per multiply-add instead of 2), and the four sums are independent,
 * so a thread no longer waits for one long chain of 64-bit additions. */
enum { ROWS = 4, TY = TILE / ROWS };
__global__ void matmul_shared_4rows(const long long *A, const long long *B, long long *C, int n)
{
    __shared__ long long sA[TILE][TILE], sB[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, col = tx + blockIdx.x * TILE, row0 = ty + blockIdx.y * TILE;
    long long acc[ROWS] = {0, 0, 0, 0};
    for (int t = 0; t < ceil_div(n, TILE); t++) {
        for (int r = 0; r < ROWS; r++) {  /* each thread loads four elements of each tile */
            int row = row0 + r * TY, a_col = t * TILE + tx, b_row = t * TILE + ty + r * TY;
            sA[ty + r * TY][tx] = row < n && a_col < n ? A[(size_t)row * n + a_col] : 0;
            sB[ty + r * TY][tx] = b_row < n && col < n ? B[(size_t)b_row * n + col] : 0;
        }
        __syncthreads();
        for (int j = 0; j < TILE; j++) {
            long long b = sB[j][tx];
#pragma unroll
            for (int r = 0; r < ROWS; r++)
                acc[r] += sA[ty + r * TY][j] * b;
        }
        __syncthreads();
    }
    for (int r = 0; r < ROWS; r++)
        if (col < n && row0 + r * TY < n)
            C[(size_t)(row0 + r * TY) * n + col] = acc[r];
}

/* ==== Host helpers ==== */

/* naive.cu's: entries -10 .. 10 from a fixed seed, the page's bound. */
static void random_matrix(long long *M, size_t count, unsigned *seed)
{
    for (size_t i = 0; i < count; i++) {
        *seed = *seed * 1103515245u + 12345u;
        M[i] = (long long)((*seed >> 16) % 21) - 10;  /* the page's bound: -10 .. 10 */
    }
}

enum version { NAIVE, REGISTER, SHARED, FOUR_ROWS, VERSIONS };
static const char *names[VERSIONS] = {"the page's naive, adds into C", "naive, sum in a register",
                                      "the page's tiled kernel", "going further: 4 rows/thread"};
static const char *keys[VERSIONS] = {"naive", "register_sum", "tiled", "four_rows"};  /* their rows' keys in --csv */

/* Queues one product C = A B of n x n matrices on stream 0, on a grid of 32 x 32 tiles of C. */
static void launch(enum version v, const long long *A, const long long *B, long long *C, int n)
{
    dim3 blocks((unsigned)ceil_div(n, TILE), (unsigned)ceil_div(n, TILE));
    if (v == NAIVE)  /* C must hold zeros: the caller's cudaMemset, outside the timed window */
        matmul_naive<<<blocks, dim3(TILE, TILE)>>>(A, B, C, n, n, n);
    else if (v == REGISTER)
        matmul_register<<<blocks, dim3(TILE, TILE)>>>(A, B, C, n, n, n);
    else if (v == SHARED)
        matmul_shared<<<blocks, dim3(TILE, TILE)>>>(A, B, C, n);
    else
        matmul_shared_4rows<<<blocks, dim3(TILE, TY)>>>(A, B, C, n);
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long size = 10112;
    int reps = 3, samples = 2000;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &size, 1, 30000, "side of the square matrices (default 10112, the page's)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs of each kernel (default 3)"},
        {"--samples", CLI_INT, &samples, 1, 1e7, "elements of C checked against the CPU (default 2000)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "French page: a 32 x 32 shared-memory tiled int64 product vs the naive one.",
                           options, COUNT_OF(options));
    results_to(results_path);
    /* Each sample is a dot product of n terms on the CPU, reading a column of B: 10^9 of them are seconds. */
    if ((double)samples * size > 1e9)
        cli_usage_error(argv[0], "--samples %d at -n %lld is %.2g multiply-adds on the CPU; at most 1e9", samples, size,
                        (double)samples * size);
    struct device_info dev;
    device_start(device, &dev);
    /* A, B and two products: four n x n int64 matrices, on the GPU and on the host. */
    int n = (int)size_to_fit(&dev, "-n", size, 2, 4 * sizeof(long long), 4 * sizeof(long long), 0);
    size_t count = (size_t)n * n, bytes = count * sizeof(long long);

    long long *A = (long long *)host_alloc(bytes), *B = (long long *)host_alloc(bytes);
    long long *C_ref = (long long *)host_alloc(bytes), *C = (long long *)host_alloc(bytes);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    unsigned seed = 2020;
    random_matrix(A, count, &seed);
    random_matrix(B, count, &seed);
    long long *dA, *dB, *dC_ref, *dC;
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC_ref, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    CUDA_CHECK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    printf("n = %d int64, blocks of %d x %d threads, a grid of %lld x %lld blocks\n", n, TILE, TILE,
           ceil_div(n, TILE), ceil_div(n, TILE));

    /* Correct first: one run of each. The register kernel's output is poisoned before (every element must
     * be written) and is the reference: the other products must equal it element by element, and it must
     * equal the CPU on a sample of elements (the whole product on one CPU core would take minutes here).
     * The page's kernel adds into C, so its C starts from zeros. The time of these products says how long
     * the timing below will take. */
    CUDA_CHECK(cudaMemset(dC_ref, 0xff, bytes));
    gpu_timer_start(&timer, 0);
    launch(REGISTER, dA, dB, dC_ref, n);
    double checked_ms = gpu_timer_stop(&timer);
    CUDA_CHECK(cudaMemcpy(C_ref, dC_ref, bytes, cudaMemcpyDeviceToHost));
    int failures = 0;
    for (int v = 0; v < VERSIONS; v++) {
        if (v == REGISTER)
            continue;
        CUDA_CHECK(cudaMemset(dC, v == NAIVE ? 0 : 0xff, bytes));
        gpu_timer_start(&timer, 0);
        launch((enum version)v, dA, dB, dC, n);
        checked_ms += gpu_timer_stop(&timer);
        CUDA_CHECK(cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost));
        size_t differ = 0;
        for (size_t i = 0; i < count; i++)
            differ += C_ref[i] != C[i];
        failures += check(differ == 0, "%s equals the register sum on all %zu elements (%zu differ)", names[v], count,
                          differ);
    }
    int wrong = 0;
    for (int s = 0; s < samples; s++) {
        int i = n - 1, j = n - 1;  /* the first sample is the far corner, the last tile's edge */
        if (s > 0) {
            seed = seed * 1103515245u + 12345u;
            i = (int)((seed >> 8) % n);
            seed = seed * 1103515245u + 12345u;
            j = (int)((seed >> 8) % n);
        }
        long long acc = 0;
        for (int k = 0; k < n; k++)
            acc += A[(size_t)i * n + k] * B[(size_t)k * n + j];
        wrong += acc != C_ref[(size_t)i * n + j];
    }
    failures += check(wrong == 0, "%d sampled elements, C[n-1][n-1] first, equal the CPU's (a full CPU check: %.1e "
                      "multiply-adds, minutes on one core)", samples, (double)n * n * n);
    if (failures)
        return 1;

    say_how_long("the timing", (reps + 1) * checked_ms / 1e3, "-r 1 or -n 5000");
    double medians[VERSIONS];
    for (int v = 0; v < VERSIONS; v++) {
        if (v == NAIVE)
            CUDA_CHECK(cudaMemsetAsync(dC, 0, bytes, 0));  /* zeros for the page's +=, before the window */
        struct timed_runs runs = timed_runs(ms, reps, 0);
        while (timed_run(&runs)) {
            launch((enum version)v, dA, dB, v == REGISTER ? dC_ref : dC, n);
            timed_run_end(&runs);
            if (v == NAIVE)
                CUDA_CHECK(cudaMemsetAsync(dC, 0, bytes, 0));  /* and again for the next run, outside its window */
        }
        say_progress((v + 1.0) / VERSIONS);
        struct stats s = stats_of(ms, reps);
        medians[v] = s.median;
        print_time(keys[v], names[v], s);
        printf("  %7.1f G multiply-adds/s\n", (double)n * n * n / (s.median * 1e-3) / 1e9);
    }
    /* The page, n = 10112 on a GTX 970, end to end (its 2.4 GB of copies are a fraction of a second):
     * "GPU global: 37.89s", "GPU shared: 13.06s", "divided by almost 3". */
    printf("\ntiled / the page's naive kernel: %.2f of the time\n", medians[SHARED] / medians[NAIVE]);
    print_article("French page, n = 10112 on a GTX 970: naive 37.89 s, tiled 13.06 s = %.2f, \"almost divided by 3\"",
                  13.06 / 37.89);
    printf("the register sum alone: %.2f of the page's naive time; tiled / the register sum: %.2f; "
           "4 rows per thread / the register sum: %.2f\n", medians[REGISTER] / medians[NAIVE],
           medians[SHARED] / medians[REGISTER], medians[FOUR_ROWS] / medians[REGISTER]);

    gpu_timer_destroy(&timer);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC_ref));
    CUDA_CHECK(cudaFree(dC));
    free(A);
    free(B);
    free(C_ref);
    free(C);
    free(ms);
    return exit_status(0);
}
