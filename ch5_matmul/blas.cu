/* blas.cu: the French page, "Installer Cupy et comparer": a library against our kernel. The page timed
 * CuPy's product of its int64 matrices, which cuBLAS cannot do (it has no int64 product; CuPy runs a
 * kernel of its own for integers). Here the vendor library itself: cublasDgemm on the page's integer
 * matrices stored as double. Every product of two entries in [-10, 10] and every partial sum of up to
 * n of them is an integer of magnitude at most 100 n (about 1e6 at n = 10112), far below 2^53, so the
 * double arithmetic is exact in any order: the result must equal the int64 tiled product bit for bit.
 * cuBLAS works in column-major order (Fortran's); a row-major matrix read as column-major is its
 * transpose, so we ask it for C^T = B^T A^T, which in memory is exactly our row-major C.
 *   make ch5 && ./ch5_matmul/blas                (n = 10112)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/cublas_check.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

enum { TILE = 32 };

/* ==== Kernel ==== */

/* shared.cu's tiled int64 kernel, copied (tests/copies.t keeps them equal): the reference that the
 * DGEMM must equal bit for bit. */
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

/* ==== Host helpers ==== */

/* naive.cu's: entries -10 .. 10 from a fixed seed, the page's bound. */
static void random_matrix(long long *M, size_t count, unsigned *seed)
{
    for (size_t i = 0; i < count; i++) {
        *seed = *seed * 1103515245u + 12345u;
        M[i] = (long long)((*seed >> 16) % 21) - 10;  /* the page's bound: -10 .. 10 */
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long size = 10112;
    int reps = 5;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &size, 1, 30000, "side of the square matrices (default 10112, the page's)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs (default 5)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "French page: cublasDgemm on integer matrices vs the int64 tiled kernel.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    /* Three n x n matrices on the GPU at a time (int64, then double) and cuBLAS's workspace; six on the
     * host. */
    int n = (int)size_to_fit(&dev, "-n", size, 2, 3 * sizeof(double), 6 * sizeof(double), 64 << 20);
    size_t count = (size_t)n * n, bytes = count * sizeof(double);
    /* FP64 is fast only on data-centre GPUs (1/64 of FP32 on an RTX 4090, 1/32 on a T4): say how long
     * the products will take at the FP64 peak of common/device.c's table, a lower bound. */
    double flops = 2.0 * n * (double)n * n;
    double fp64_seconds = (2 + 2 * reps) * flops / (dev.peak_fp64_matrix_gflops * 1e9);
    say_how_long("the 2 + 2 x r FP64 products, at the FP64 peak,", fp64_seconds, "-n 4096 or -r 1");

    long long *A = (long long *)host_alloc(bytes), *B = (long long *)host_alloc(bytes);
    long long *C_int = (long long *)host_alloc(bytes);
    double *Ad = (double *)host_alloc(bytes), *Bd = (double *)host_alloc(bytes), *Cd = (double *)host_alloc(bytes);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    unsigned seed = 2020;
    random_matrix(A, count, &seed);
    random_matrix(B, count, &seed);
    for (size_t i = 0; i < count; i++) {  /* the same integers, as double */
        Ad[i] = (double)A[i];
        Bd[i] = (double)B[i];
    }

    /* The int64 tiled product: the reference. */
    long long *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    CUDA_CHECK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));
    dim3 threads(TILE, TILE), blocks((unsigned)ceil_div(n, TILE), (unsigned)ceil_div(n, TILE));
    matmul_shared<<<blocks, threads>>>(dA, dB, dC, n);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(C_int, dC, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    double *dAd, *dBd, *dCd, one = 1.0, zero = 0.0;
    CUDA_CHECK(cudaMalloc(&dAd, bytes));
    CUDA_CHECK(cudaMalloc(&dBd, bytes));
    CUDA_CHECK(cudaMalloc(&dCd, bytes));
    CUDA_CHECK(cudaMemcpy(dAd, Ad, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dBd, Bd, bytes, cudaMemcpyHostToDevice));
    /* Column-major: C^T (n x n) = B^T (n x n) x A^T; leading dimensions are the row lengths, n. */
    CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dBd, n, dAd, n, &zero, dCd, n));
    CUDA_CHECK(cudaMemcpy(Cd, dCd, bytes, cudaMemcpyDeviceToHost));
    size_t differ = 0;
    for (size_t i = 0; i < count; i++)
        differ += Cd[i] != (double)C_int[i];
    if (check(differ == 0, "cublasDgemm equals the int64 tiled product bit for bit on all %zu elements (%zu differ)",
              count, differ))
        return 1;

    /* Time 1: the DGEMM alone. Time 2: as the page timed CuPy, copies in and out included (from the
     * ordinary, pageable memory a NumPy array lives in). */
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs))
        CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dBd, n, dAd, n, &zero, dCd, n));
    struct stats gemm = stats_of(ms, reps);
    runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs)) {
        CUDA_CHECK(cudaMemcpyAsync(dAd, Ad, bytes, cudaMemcpyHostToDevice, 0));
        CUDA_CHECK(cudaMemcpyAsync(dBd, Bd, bytes, cudaMemcpyHostToDevice, 0));
        CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dBd, n, dAd, n, &zero, dCd, n));
        CUDA_CHECK(cudaMemcpyAsync(Cd, dCd, bytes, cudaMemcpyDeviceToHost, 0));
    }
    printf("\nn = %d, float64 holding integers, %d runs; FP64 peak %.0f GFLOP/s (%d SMs x %d FP64 lanes%s x 2 x "
           "%.2f GHz)\n", n, reps, dev.peak_fp64_matrix_gflops, dev.sms, dev.fp64_lanes,
           dev.peak_fp64_matrix_gflops > dev.peak_fp64_gflops ? " x 2 on the tensor cores" : "", dev.clock_khz / 1e6);
    print_flops("dgemm", "cublasDgemm alone", gemm, flops, dev.peak_fp64_matrix_gflops, "of the FP64 peak");
    print_flops("dgemm_with_copies", "with copies in and out", stats_of(ms, reps), flops, dev.peak_fp64_matrix_gflops,
                "of the FP64 peak");
    /* The page's CuPy product was int64, CuPy's own kernel (no integer GEMM in cuBLAS): not this call. */
    print_article("French page, n = 10112 on Colab, end to end: CuPy's int64 A @ B 1.07 s against its Numba tiled "
                  "kernel 5.67 s, \"1 to 6\"");

    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaFree(dAd));
    CUDA_CHECK(cudaFree(dBd));
    CUDA_CHECK(cudaFree(dCd));
    free(A);
    free(B);
    free(C_int);
    free(Ad);
    free(Bd);
    free(Cd);
    free(ms);
    return exit_status(0);
}
