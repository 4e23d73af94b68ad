/* sgemm_ladder.cu: going further than the French page: float32 C = A x B, step by step from the naive
 * kernel to most of what the vendor library reaches. Each step removes the bottleneck of the one before:
 *   1. naive: thread x walks a row of C. A warp's 32 threads read 32 different rows: uncoalesced.
 *   2. coalesced: thread x walks a column, so a warp reads 32 neighbouring floats of B at once.
 *   3. shared tiles (the page's kernel in float): each element is loaded from global memory once per
 *      32 x 32 tile instead of once per thread; now shared memory loads limit it (2 per multiply-add).
 *   4. register tiles: a block computes a 128 x 128 tile of C and each thread an 8 x 8 piece of it, in
 *      registers. Per step a thread loads 8 values of A and 8 of B from shared memory and does 64
 *      multiply-adds with them: 8 times fewer shared loads per FLOP. Global loads are 16 bytes wide.
 * Each is checked against cublasSgemm in strict fp32 (no TF32) and timed over sizes 256 to 8192.
 *   make ch5 && ./ch5_matmul/sgemm_ladder               (writes output/ch5/sgemm_ladder.csv; make figures)
 *   ./ch5_matmul/sgemm_ladder --max 2048 -r 3
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/cublas_check.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* ==== Kernels ==== */

/* The first three kernels run in blocks of 32 x 32 threads: the bound keeps each within the 64
 * registers a thread that a block of 1024 threads may have on a T4. */

/* 1. Naive, with x along the rows of C: the layout that feels natural and is wrong for a GPU. */
__global__ void __launch_bounds__(1024) sgemm_naive(const float *A, const float *B, float *C, int n)
{
    int row = threadIdx.x + blockIdx.x * blockDim.x, col = threadIdx.y + blockIdx.y * blockDim.y;
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
    C[(size_t)row * n + col] = acc;
}

/* 2. Coalesced: x along the columns, as the French page says (x is the column, y the row). */
__global__ void __launch_bounds__(1024) sgemm_coalesced(const float *A, const float *B, float *C, int n)
{
    int col = threadIdx.x + blockIdx.x * blockDim.x, row = threadIdx.y + blockIdx.y * blockDim.y;
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
    C[(size_t)row * n + col] = acc;
}

/* 3. Shared-memory tiles of 32 x 32, guarded for any n (shared.cu's kernel in float). */
enum { TILE = 32 };
__global__ void __launch_bounds__(1024) sgemm_shared(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[TILE][TILE], sB[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, col = tx + blockIdx.x * TILE, row = ty + blockIdx.y * TILE;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        sA[ty][tx] = row < n && t + tx < n ? A[(size_t)row * n + t + tx] : 0.0f;
        sB[ty][tx] = t + ty < n && col < n ? B[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[(size_t)row * n + col] = acc;
}

/* 4. Register tiles. 256 threads compute a BM x BN = 128 x 128 tile of C, each thread TM x TN = 8 x 8
 * elements, stepping through k BK = 8 at a time. The A tile is stored transposed (sA[k][m]) so that a
 * thread's 8 values of A for one k are contiguous, like its 8 values of B. */
enum { BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, REG_THREADS = (BM / TM) * (BN / TN) };
__global__ void __launch_bounds__(REG_THREADS) sgemm_registers(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[BK][BM], sB[BK][BN];
    int tid = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    int thread_row = (tid / (BN / TN)) * TM, thread_col = (tid % (BN / TN)) * TN;
    /* Which 4 consecutive floats each thread loads: of A, row tid / 2 and k = (tid % 2) * 4 .. + 3;
     * of B, row tid / 32 and columns (tid % 32) * 4 .. + 3. */
    int a_row = tid / 2, a_k = (tid % 2) * 4, b_row = tid / 32, b_col = (tid % 32) * 4;
    bool wide = n % 4 == 0;  /* 16-byte loads need every row to start on a 16-byte boundary */
    float acc[TM][TN] = {{0.0f}}, reg_a[TM], reg_b[TN];

    for (int t = 0; t < n; t += BK) {
        int ar = block_row + a_row, ak = t + a_k, br = t + b_row, bc = block_col + b_col;
        float4 a4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), b4 = a4;
        if (wide && ar < n && ak + 3 < n) {
            a4 = *(const float4 *)&A[(size_t)ar * n + ak];
        } else if (ar < n) {  /* the edges: element by element, zeros outside */
            a4.x = ak < n ? A[(size_t)ar * n + ak] : 0.0f;
            a4.y = ak + 1 < n ? A[(size_t)ar * n + ak + 1] : 0.0f;
            a4.z = ak + 2 < n ? A[(size_t)ar * n + ak + 2] : 0.0f;
            a4.w = ak + 3 < n ? A[(size_t)ar * n + ak + 3] : 0.0f;
        }
        if (wide && br < n && bc + 3 < n) {
            b4 = *(const float4 *)&B[(size_t)br * n + bc];
        } else if (br < n) {
            b4.x = bc < n ? B[(size_t)br * n + bc] : 0.0f;
            b4.y = bc + 1 < n ? B[(size_t)br * n + bc + 1] : 0.0f;
            b4.z = bc + 2 < n ? B[(size_t)br * n + bc + 2] : 0.0f;
            b4.w = bc + 3 < n ? B[(size_t)br * n + bc + 3] : 0.0f;
        }
        sA[a_k][a_row] = a4.x;  /* transposed */
        sA[a_k + 1][a_row] = a4.y;
        sA[a_k + 2][a_row] = a4.z;
        sA[a_k + 3][a_row] = a4.w;
        *(float4 *)&sB[b_row][b_col] = b4;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                *(float4 *)&reg_a[i] = *(const float4 *)&sA[k][thread_row + i];
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                *(float4 *)&reg_b[j] = *(const float4 *)&sB[k][thread_col + j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += reg_a[i] * reg_b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = block_row + thread_row + i;
        if (row >= n)
            break;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            int col = block_col + thread_col + j;
            if (wide && col + 3 < n) {
                *(float4 *)&C[(size_t)row * n + col] =
                    make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
                for (int jj = 0; jj < 4 && col + jj < n; jj++)
                    C[(size_t)row * n + col + jj] = acc[i][j + jj];
            }
        }
    }
}

/* ==== Host helpers ==== */

enum kernel { NAIVE, COALESCED, SHARED, REGISTERS, CUBLAS, KERNELS };
/* The naive kernel runs up to NAIVE_MAX; above, minutes of an uncoalesced kernel would teach nothing new. */
enum { NAIVE_MAX = 4096 };
static const double FROBENIUS_TOLERANCE = 1e-5, ELEMENT_TOLERANCE = 1e-3;
static const char *names[KERNELS] = {"naive", "coalesced", "shared", "registers", "cublas"};

/* Queues one product C = A B of n x n matrices on stream 0, which cuBLAS's handle uses too. */
static void launch(enum kernel k, const float *A, const float *B, float *C, int n, cublasHandle_t handle)
{
    const float one = 1.0f, zero = 0.0f;
    dim3 t32(32, 32), g32((n + 31) / 32, (n + 31) / 32);
    switch (k) {
    case NAIVE: sgemm_naive<<<g32, t32>>>(A, B, C, n); break;
    case COALESCED: sgemm_coalesced<<<g32, t32>>>(A, B, C, n); break;
    case SHARED: sgemm_shared<<<g32, t32>>>(A, B, C, n); break;
    case REGISTERS: sgemm_registers<<<dim3((n + BN - 1) / BN, (n + BM - 1) / BM), REG_THREADS>>>(A, B, C, n); break;
    default: /* row-major C = A B is column-major C^T = B^T A^T (see blas.cu) */
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
    }
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long max_n = 8192;
    int reps = 5;
    const char *csv_path = "output/ch5/sgemm_ladder.csv";
    struct cli_option options[] = {
        {"--max", CLI_SIZE, &max_n, 1, 16384, "largest size (default 8192)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs per point (default 5)"},
        {"--csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the measurements to FILE (default output/ch5/sgemm_ladder.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: float32 matrix products from naive to most of cuBLAS.", options,
                           COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    /* A, B and C on the GPU, and cuBLAS's workspace; on the host A and B and two to compare. */
    max_n = size_to_fit(&dev, "--max", max_n, 2, 3 * sizeof(float), 4 * sizeof(float), 64 << 20);
    /* The FP32 peak: 2 FLOP per fused multiply-add x lanes per SM (64 on a T4 or an A100, 128 on an
     * H100 or an RTX 4090: common/device.c's table) x SMs x clock. */
    double peak = dev.peak_fp32_gflops;

    /* Sizes: powers of two, and sizes that are not multiples of any tile (1000, 4000, 4097). */
    int all_sizes[] = {127, 256, 512, 1000, 1024, 2048, 4000, 4096, 4097, 8192, 16384};
    int sizes[COUNT_OF(all_sizes) + 1], count = 0;
    for (int i = 0; i < COUNT_OF(all_sizes); i++)
        if (all_sizes[i] <= max_n)
            sizes[count++] = all_sizes[i];
    if (count == 0 || sizes[count - 1] != max_n)
        sizes[count++] = (int)max_n;

    size_t most = (size_t)max_n * max_n;
    float *A = (float *)host_alloc(most * sizeof(float)), *B = (float *)host_alloc(most * sizeof(float));
    float *got = (float *)host_alloc(most * sizeof(float)), *want = (float *)host_alloc(most * sizeof(float));
    double *ms = (double *)host_alloc(reps * sizeof(double));
    srand(5);
    for (size_t i = 0; i < most; i++) {
        A[i] = 2.0f * rand() / RAND_MAX - 1.0f;
        B[i] = 2.0f * rand() / RAND_MAX - 1.0f;
    }
    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, most * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, most * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, most * sizeof(float)));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));  /* strict fp32: no TF32 tensor cores */

    FILE *csv = csv_open(csv_path, &dev, "kernel,n,median_ms,mean_ms,std_ms,gflops,rel_error");
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    int failures = 0;
    double at_4096[KERNELS] = {0}, at_odd[KERNELS] = {0};
    printf("GFLOP/s (median of %d; fp32 peak %.0f GFLOP/s from %d SMs x %d lanes x 2 x %.2f GHz)\n", reps, peak,
           dev.sms, dev.fp32_lanes, dev.clock_khz / 1e6);
    printf("%6s %10s %10s %10s %10s %10s  %s\n", "n", "naive", "coalesced", "shared", "registers", "cublas",
           "registers/cublas");
    /* What the last size cost: each kernel's seconds (they grow as n^3) and the host's (copies and
     * checks, n^2). Before each size, they say how long the sizes still to run will take, once a size of
     * 2048 or more has run: below it the first launches' one-time costs dominate, and the naive kernel
     * runs 2.5x faster at n = 1000 than at powers of two (a 14-SM H100, through MPS). */
    double kernel_s[KERNELS] = {0}, host_s = 0.0;
    int warned = 0;
    for (int s = 0; s < count; s++) {
        int n = sizes[s];
        size_t elements = (size_t)n * n;
        double rest = 0.0;
        for (int later = s; later < count && s > 0 && sizes[s - 1] >= 2000; later++) {
            double ratio = (double)sizes[later] / sizes[s - 1];
            for (int k = 0; k < KERNELS; k++)
                rest += k == NAIVE && sizes[later] > NAIVE_MAX ? 0.0 : kernel_s[k] * ratio * ratio * ratio;
            rest += host_s * ratio * ratio;
        }
        if (!warned && rest >= 15.0) {
            char what[64], shorter[32];
            snprintf(what, sizeof what, "n = %d to %d", n, sizes[count - 1]);
            snprintf(shorter, sizeof shorter, "--max %d", sizes[s - 1]);
            say_how_long(what, rest, shorter);
            warned = 1;
        }
        double size_start = wall_seconds(), size_kernels = 0.0;
        /* The n x n matrices are the top-left corners of the big random ones, repacked. */
        for (int r = 0; r < n; r++) {
            memcpy(got + (size_t)r * n, A + (size_t)r * max_n, n * sizeof(float));
            memcpy(want + (size_t)r * n, B + (size_t)r * max_n, n * sizeof(float));
        }
        CUDA_CHECK(cudaMemcpy(dA, got, elements * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dB, want, elements * sizeof(float), cudaMemcpyHostToDevice));
        launch(CUBLAS, dA, dB, dC, n, handle);
        CUDA_CHECK(cudaMemcpy(want, dC, elements * sizeof(float), cudaMemcpyDeviceToHost));
        double ref_norm = 0.0, ref_max = 0.0;
        for (size_t i = 0; i < elements; i++) {
            ref_norm += (double)want[i] * want[i];
            ref_max = fabs(want[i]) > ref_max ? fabs(want[i]) : ref_max;
        }
        printf("%6d", n);
        double row[KERNELS] = {0};
        for (int k = 0; k < KERNELS; k++) {
            if (k == NAIVE && n > NAIVE_MAX) {  /* minutes of an uncoalesced kernel teach nothing new */
                printf(" %10s", "-");
                continue;
            }
            /* Correct first: ||C - C_cublas|| / ||C_cublas|| below FROBENIUS_TOLERANCE (fp32 sums of n terms
             * in another order differ by about sqrt(n) x 2^-24 relative) and no element off by more than
             * ELEMENT_TOLERANCE of the largest. */
            CUDA_CHECK(cudaMemset(dC, 0xff, elements * sizeof(float)));  /* NaN: unwritten elements fail */
            launch((enum kernel)k, dA, dB, dC, n, handle);
            CUDA_CHECK(cudaMemcpy(got, dC, elements * sizeof(float), cudaMemcpyDeviceToHost));
            double diff = 0.0, worst = 0.0;
            for (size_t i = 0; i < elements; i++) {
                double d = fabs((double)got[i] - want[i]);
                diff += d * d;
                worst = worst_of(worst, d);
            }
            double rel = sqrt(diff / ref_norm);
            if (!(rel <= FROBENIUS_TOLERANCE && worst <= ELEMENT_TOLERANCE * ref_max))  /* only failures are printed */
                failures += check(0, "%s at n = %d: relative error %.1e, worst element off by %.1e", names[k], n, rel,
                                  worst);
            for (int r = -1; r < reps; r++) {
                gpu_timer_start(&timer, 0);
                launch((enum kernel)k, dA, dB, dC, n, handle);
                float t = gpu_timer_stop(&timer);
                if (r >= 0)
                    ms[r] = t;
            }
            struct stats st = stats_of(ms, reps);
            kernel_s[k] = (reps + 2) * st.median / 1e3;  /* the checked run, the warm-up and the timed runs */
            size_kernels += kernel_s[k];
            double gflops = 2.0 * n * (double)n * n / (st.median * 1e-3) / 1e9;
            csv_row(csv, "%s,%d,%.5f,%.5f,%.5f,%.1f,%.2e", names[k], n, st.median, st.mean, st.std, gflops, rel);
            printf(" %10.0f", gflops);
            row[k] = gflops;
            if (n == 4096)
                at_4096[k] = gflops;
            if (n == 4000)
                at_odd[k] = gflops;
        }
        printf("  %.0f%%\n", 100.0 * row[REGISTERS] / row[CUBLAS]);
        host_s = wall_seconds() - size_start - size_kernels;
        if (host_s < 0.0)
            host_s = 0.0;
    }
    csv_close(csv);
    if (check(failures == 0, "every kernel at every size within %g (relative, Frobenius) of cublasSgemm",
              FROBENIUS_TOLERANCE))
        return 1;
    if (at_4096[CUBLAS] > 0)
        printf("\nn = 4096: registers = %.0f%% of cublasSgemm (%.0f of %.0f GFLOP/s); cuBLAS = %.0f%% of the fp32 "
               "peak\n",
               100 * at_4096[REGISTERS] / at_4096[CUBLAS], at_4096[REGISTERS], at_4096[CUBLAS],
               100 * at_4096[CUBLAS] / peak);
    if (at_odd[CUBLAS] > 0)
        printf("n = 4000 (not a multiple of the 128 x 128 tile): registers = %.0f%% of cublasSgemm\n",
               100 * at_odd[REGISTERS] / at_odd[CUBLAS]);
    printf("wrote %s\n", csv_path);

    gpu_timer_destroy(&timer);
    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    free(A);
    free(B);
    free(got);
    free(want);
    free(ms);
    return 0;
}
