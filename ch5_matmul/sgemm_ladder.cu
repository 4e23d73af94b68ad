/* sgemm_ladder.cu: going further than the French page: float32 C = A x B, step by step from the naive
 * kernel to the vendor library. Each rung removes the bottleneck of the one before it:
 *   1. naive: thread x walks a row of C. A warp's 32 threads read 32 different rows: uncoalesced.
 *   2. coalesced: thread x walks a column, so a warp reads 32 neighbouring floats of B at once.
 *   3. shared: 32 x 32 tiles in shared memory (the page's kernel in float): each element comes from
 *      global memory once per tile; now two shared-memory loads per multiply-add limit it.
 *   4. registers: a block computes a 128 x 128 tile of C, each thread an 8 x 8 piece in registers: 16
 *      shared loads for 64 multiply-adds. 16-byte global loads; the A tile is stored transposed.
 *   5. warptiles: each warp owns a 64 x 64 piece of the tile and each thread 8 x 16 of it, laid out so
 *      that a warp's shared-memory reads are side by side: 24 loads for 128 multiply-adds.
 *   6. double_buffer: the next tiles travel from global memory while the current ones are multiplied,
 *      with one barrier per step instead of two.
 *   7. sized: rung 6 with the tile picked for n, so that small and odd sizes still fill the GPU.
 * Every rung is checked against cublasSgemm in strict fp32 and timed beside it, n = 127 to --max (8192),
 * against the fp32 peak from the device facts. The tensor cores are the next rungs: sgemm_tensor (8,
 * mma.sync) and sgemm_hopper (9, wgmma).
 *   make ch5 && ./ch5_matmul/sgemm_ladder               (writes output/ch5/sgemm_ladder.csv; make figures)
 *   ./ch5_matmul/sgemm_ladder --max 2048 -r 3
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/cublas_check.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/sweep.h"

/* ==== 1-3. One element of C per thread ==== */

/* These run in blocks of 32 x 32 threads: the bound keeps each within the 64 registers a thread of a
 * block of 1024 threads may have on a T4. */

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

/* ==== 4. Register tiles ==== */

/* Four consecutive floats of an n x n matrix from (row, col), zeros outside it: one 16-byte access when
 * every row starts on a 16-byte boundary (n a multiple of 4) and all four are inside. */
__device__ float4 load4(const float *M, int n, int row, int col)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= n)
        return v;
    const float *p = M + (size_t)row * n + col;
    if (n % 4 == 0 && col + 3 < n)
        return *(const float4 *)p;
    v.x = col < n ? p[0] : 0.0f;  /* the edges, and rows that are not 16-byte aligned */
    v.y = col + 1 < n ? p[1] : 0.0f;
    v.z = col + 2 < n ? p[2] : 0.0f;
    v.w = col + 3 < n ? p[3] : 0.0f;
    return v;
}
__device__ float4 load4_each(const float *M, int n, int row, int col)  /* one float at a time */
{
    float v[4];
    for (int e = 0; e < 4; e++)
        v[e] = row < n && col + e < n ? M[(size_t)row * n + col + e] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}
__device__ void store4(float *M, int n, int row, int col, const float *v)
{
    if (row >= n)
        return;
    float *p = M + (size_t)row * n + col;
    if (n % 4 == 0 && col + 3 < n)
        *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
    else
        for (int e = 0; e < 4 && col + e < n; e++)
            p[e] = v[e];
}

/* 256 threads compute a BM x BN = 128 x 128 tile of C, each thread TM x TN = 8 x 8 elements, stepping
 * through k BK = 8 at a time. The A tile is stored transposed (sA[k][m]) so that a thread's 8 values of
 * A for one k are contiguous, like its 8 values of B. */
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
    float acc[TM][TN] = {{0.0f}}, reg_a[TM], reg_b[TN];

    for (int t = 0; t < n; t += BK) {
        float4 a4 = load4(A, n, block_row + a_row, t + a_k), b4 = load4(B, n, t + b_row, block_col + b_col);
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
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4(C, n, block_row + thread_row + i, block_col + thread_col + j, &acc[i][j]);
}

/* ==== 5-7. Warp tiles ==== */

/* A block of 128 threads (4 warps) computes a BM x BN tile of C, stepping through k 16 at a time. Each
 * warp owns a WM x WN piece; its 32 threads stand in 8 rows of 4, and each computes TM = WM/8 consecutive
 * rows of the piece by 4 x WN/16 columns: groups of 4 that lie 16 columns apart. For each k, a warp thus
 * reads B at 16 neighbouring positions of 4 floats (no two in one bank) and A at 8, each shared by the 4
 * threads of a row (a broadcast). For a 64 x 64 piece that is 8 + 16 floats from shared memory per thread
 * for 128 multiply-adds, where rung 4's thread needed 16 for 64. Rung 5 is this kernel with one set of
 * shared tiles, rung 6 with two (double_buffer); rung 7 picks BM x BN for n: 128 x 128 tiles with 64 x 64
 * warp pieces, 128 x 64 with 64 x 32, or 64 x 64 with 32 x 32. */
enum { WT_BK = 16, WT_THREADS = 128 };

template <int BM, int BN, int WM, int WN, bool double_buffer>
__global__ void __launch_bounds__(WT_THREADS) sgemm_warptiles(const float *A, const float *B, float *C, int n)
{
    constexpr int TM = WM / 8, GROUPS = WN / 16;              /* a thread's rows, and its groups of 4 columns */
    constexpr int A_LOADS = BM / 32, B_LOADS = BN / 32;       /* 16-byte loads per thread per tile */
    constexpr int BUFFERS = double_buffer ? 2 : 1;
    static_assert((BM / WM) * (BN / WN) * 32 == WT_THREADS, "4 warps");
    /* A is stored transposed (sA[k][m]) so that a thread's TM values of A for one k are contiguous; the
     * 4 floats of padding per row spread the transposed stores, which would otherwise put the 4 values
     * of k of one row in one bank. */
    __shared__ __align__(16) float sA[BUFFERS][WT_BK][BM + 4];
    __shared__ __align__(16) float sB[BUFFERS][WT_BK][BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = warp / (BN / WN) * WM + lane / 4 * TM, col0 = warp % (BN / WN) * WN + lane % 4 * 4;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    float acc[TM][4 * GROUPS] = {}, a[TM], b[4 * GROUPS];
    float4 next_a[A_LOADS], next_b[B_LOADS];

    /* Fetch the tiles at k = t into registers: the loads are issued here and waited for where the
     * registers are first used. 4 threads per row of the A tile (BM x 16), BN/4 per row of B (16 x BN).
     * Tiles wholly inside the matrices take plain 16-byte loads, after one test for the whole tile that
     * every thread of the block passes alike; the edges go element by element, zeros outside. */
    auto fetch = [&](int t) {
        bool inside = n % 4 == 0 && block_row + BM <= n && block_col + BN <= n && t + WT_BK <= n;
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int r = block_row + tid / 4 + 32 * l, k = t + tid % 4 * 4;
            next_a[l] = inside ? *(const float4 *)&A[(size_t)r * n + k] : load4_each(A, n, r, k);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int r = t + tid / (BN / 4) + l * (WT_THREADS / (BN / 4)), c = block_col + tid % (BN / 4) * 4;
            next_b[l] = inside ? *(const float4 *)&B[(size_t)r * n + c] : load4_each(B, n, r, c);
        }
    };
    auto store = [&](int s) {  /* ... into shared-memory set s */
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int m = tid / 4 + 32 * l, k = tid % 4 * 4;
            sA[s][k][m] = next_a[l].x;
            sA[s][k + 1][m] = next_a[l].y;
            sA[s][k + 2][m] = next_a[l].z;
            sA[s][k + 3][m] = next_a[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++)
            *(float4 *)&sB[s][tid / (BN / 4) + l * (WT_THREADS / (BN / 4))][tid % (BN / 4) * 4] = next_b[l];
    };
    auto multiply = [&](int s) {  /* acc += the thread's rows of A x its columns of B, 16 values of k */
#pragma unroll
        for (int k = 0; k < WT_BK; k++) {
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                *(float4 *)&a[i] = *(const float4 *)&sA[s][k][row0 + i];
#pragma unroll
            for (int g = 0; g < GROUPS; g++)
                *(float4 *)&b[4 * g] = *(const float4 *)&sB[s][k][col0 + 16 * g];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < 4 * GROUPS; j++)
                    acc[i][j] += a[i] * b[j];
        }
    };

    if (!double_buffer) {
        /* 5. Fetch, store, barrier, multiply, barrier: while the tiles travel from global memory, the
         * block's warps have nothing to do but wait. */
        for (int t = 0; t < n; t += WT_BK) {
            fetch(t);
            store(0);
            __syncthreads();
            multiply(0);
            __syncthreads();  /* before the next step overwrites the tiles */
        }
    } else {
        /* 6. Double buffering: the loads of step t + 16 are issued before the multiply of step t and
         * waited for after it, so their latency hides behind the arithmetic; they are stored into the
         * other set, which nobody reads any more (the barrier that ended the last step saw to it). One
         * barrier per step: the next step's multiply must see the stores. */
        fetch(0);
        store(0);
        __syncthreads();
        for (int t = 0, s = 0; t < n; t += WT_BK, s ^= 1) {
            bool more = t + WT_BK < n;
            if (more)
                fetch(t + WT_BK);
            multiply(s);
            if (more)
                store(s ^ 1);
            __syncthreads();
        }
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int g = 0; g < GROUPS; g++)
            store4(C, n, block_row + row0 + i, block_col + col0 + 16 * g, &acc[i][4 * g]);
}

/* 7. The tile shapes rung 7 picks from, biggest first (pick_shape, on the host, says how). */
struct shape {
    int bm, bn;
    const char *name;  /* rows x columns of C, then k */
};
static const struct shape shapes[] = {{128, 128, "128x128x16"}, {128, 64, "128x64x16"}, {64, 64, "64x64x16"}};
enum { SHAPES = 3 };

/* ==== Host helpers ==== */

enum kernel { NAIVE, COALESCED, SHARED, REGISTERS, WARPTILES, DOUBLE_BUFFER, SIZED, CUBLAS, KERNELS };
static const char *const names[KERNELS] = {"naive", "coalesced", "shared", "registers", "warptiles",
                                           "double_buffer", "sized", "cublas"};
/* The naive kernel runs up to NAIVE_MAX; above, minutes of an uncoalesced kernel would teach nothing new. */
enum { NAIVE_MAX = 4096 };
struct run_plan {
    int shape;  /* rung 7's tile */
    cublasHandle_t handle;
};

/* Queues product k, C = A B of n x n matrices, on stream 0, which cuBLAS's handle uses too; `how` is
 * the run_plan given to sweep_kernels (sweep.h calls launch with it). */
static void launch(int k, const float *A, const float *B, float *C, int n, const void *how)
{
    const struct run_plan *plan = (const struct run_plan *)how;
    const float one = 1.0f, zero = 0.0f;
    dim3 t32(32, 32), g32((n + 31) / 32, (n + 31) / 32), wt(WT_THREADS);
    dim3 tiles_128(ceil_div(n, 128), ceil_div(n, 128));
    int shape = k == SIZED ? plan->shape : 0;
    switch (k) {
    case NAIVE: sgemm_naive<<<g32, t32>>>(A, B, C, n); break;
    case COALESCED: sgemm_coalesced<<<g32, t32>>>(A, B, C, n); break;
    case SHARED: sgemm_shared<<<g32, t32>>>(A, B, C, n); break;
    case REGISTERS: sgemm_registers<<<tiles_128, REG_THREADS>>>(A, B, C, n); break;
    case WARPTILES: sgemm_warptiles<128, 128, 64, 64, false><<<tiles_128, wt>>>(A, B, C, n); break;
    case DOUBLE_BUFFER:
    case SIZED:
        if (shape == 0)
            sgemm_warptiles<128, 128, 64, 64, true><<<tiles_128, wt>>>(A, B, C, n);
        else if (shape == 1)
            sgemm_warptiles<128, 64, 64, 32, true><<<dim3(ceil_div(n, 64), ceil_div(n, 128)), wt>>>(A, B, C, n);
        else
            sgemm_warptiles<64, 64, 32, 32, true><<<dim3(ceil_div(n, 64), ceil_div(n, 64)), wt>>>(A, B, C, n);
        break;
    default: /* row-major C = A B is column-major C^T = B^T A^T (see blas.cu) */
        CUBLAS_CHECK(cublasSetMathMode(plan->handle, CUBLAS_PEDANTIC_MATH));  /* no TF32 behind our back */
        CUBLAS_CHECK(cublasSgemm(plan->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
    }
    CHECK_LAUNCH();
}

/* Rung 7's choice. A shape keeps `fit` blocks on each SM at once (the occupancy calculator: registers,
 * shared memory, threads), so a wave is sms x fit blocks, and its tiles fill ceil(tiles / wave) waves:
 * tiles / (waves x wave) of the block slots hold work. A bigger tile does fewer shared-memory loads per
 * multiply-add and runs about 15% faster than the next when the GPU is full, so take the biggest that
 * leaves at most 15% of its slots idle; if none does (small n), the one that leaves the fewest. */
static int pick_shape(int n, const struct device_info *dev, const int fit[SHAPES])
{
    int best = 0;
    double best_use = -1.0;
    for (int s = 0; s < SHAPES; s++) {
        long long tiles = ceil_div(n, shapes[s].bm) * ceil_div(n, shapes[s].bn), wave = (long long)dev->sms * fit[s];
        double use = (double)tiles / (ceil_div(tiles, wave) * wave);
        if (use >= 0.85)
            return s;
        if (use > best_use) {
            best_use = use;
            best = s;
        }
    }
    return best;
}

/* One size: correct first, every kernel against cublasSgemm in strict fp32 (rung 7 in each of its
 * shapes), then timed (rung 7 in the shape picked for n); then the size's row of the table. */
static void measure(struct sweep *sw, struct run_plan *plan, int picked)
{
    int n = sw->n;
    for (int k = 0; k < KERNELS; k++) {
        if (n > sw->largest[k])  /* the naive kernel past NAIVE_MAX */
            continue;
        double error = 0.0;
        for (int shape = 0; shape < (k == SIZED ? SHAPES : 1); shape++) {
            plan->shape = shape;
            double e = sweep_check(sw, k, k == SIZED ? shapes[shape].name : names[k]);
            error = k != SIZED || shape == picked ? e : error;
        }
        plan->shape = picked;
        sweep_time(sw, k, k == SIZED ? shapes[picked].name : "", error);
    }
    const double *row = sw->gflops[sw->s];
    printf("%5d", n);
    for (int k = 0; k < KERNELS; k++)
        if (n > sw->largest[k])
            printf(" %6s", "-");
        else
            printf(" %6.1f%s", row[k] / 1e3, k == SIZED ? " |" : "");
    printf(" | %3.0f%%  %s\n", 100.0 * row[SIZED] / row[CUBLAS], shapes[picked].name);
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
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0,
         "write the sweep to FILE (default output/ch5/sgemm_ladder.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: float32 matrix products from naive to cuBLAS.", options,
                           COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    /* A, B and C on the GPU, and cuBLAS's workspace; on the host A and B and two to compare. */
    max_n = size_to_fit(&dev, "--max", max_n, 2, 3 * sizeof(float), 4 * sizeof(float), 64 << 20);
    /* The FP32 peak: 2 FLOP per fused multiply-add x lanes per SM (64 on a T4 or an A100, 128 on an
     * H100 or an RTX 4090: common/device.c's table) x SMs x clock. */
    double peak = dev.peak_fp32_gflops;
    struct run_plan plan = {0, NULL};
    int fit[SHAPES];
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[0], sgemm_warptiles<128, 128, 64, 64, true>,
                                                             WT_THREADS, 0));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[1], sgemm_warptiles<128, 64, 64, 32, true>,
                                                             WT_THREADS, 0));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[2], sgemm_warptiles<64, 64, 32, 32, true>,
                                                             WT_THREADS, 0));

    struct sweep sw;  /* n = 127 to max_n */
    sweep_start(&sw, max_n, reps, SWEEP_FP32, csv_path);
    CUBLAS_CHECK(cublasCreate(&plan.handle));
    sweep_kernels(&sw, KERNELS, names, launch, &plan, CUBLAS);
    sweep_up_to(&sw, NAIVE, NAIVE_MAX);
    sweep_limit(&sw, "peak_fp32", peak);  /* the limit, as a row of its own (n = 0) for the figure */
    printf("TFLOP/s, median of %d. Limit: fp32 peak %.1f (%d SMs x %d lanes x 2 x %.2f GHz)\n", reps, peak / 1e3,
           dev.sms, dev.fp32_lanes, dev.clock_khz / 1e6);
    printf("%5s %6s %6s %6s %6s %6s %6s %6s | %6s | %s\n", "n", "naive", "coal.", "shared", "regs", "warp", "double",
           "sized", "cuBLAS", "sized/cuBLAS, tile");
    while (sweep_next(&sw))
        measure(&sw, &plan, pick_shape(sw.n, &dev, fit));
    if (check(sw.failures == 0, "every kernel at every size within %g (relative, Frobenius) of cublasSgemm in "
              "strict fp32", SWEEP_FP32_TOLERANCE))
        return 1;  /* the temporary CSV is removed at exit: no results file from a failed run */

    /* The summary: the best rung against cuBLAS where the course sets its bars. */
    printf("\nsized (the best fp32 rung) / cublasSgemm in strict fp32:");
    for (int s = 0; s < sw.count; s++)
        if (sw.sizes[s] >= 1000)
            printf(" n = %d %.0f%%%s", sw.sizes[s], 100.0 * sw.gflops[s][SIZED] / sw.gflops[s][CUBLAS],
                   s + 1 < sw.count ? "," : "");
    printf("\n");
    sweep_finish(&sw);
    CUBLAS_CHECK(cublasDestroy(plan.handle));
    return exit_status(0);
}
