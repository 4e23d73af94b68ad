/* sgemm_tensor.cu: going further than the French page, after sgemm_ladder: rung 8, the same float32
 * product C = A x B on the tensor cores. They read each input as TF32 (fp32's exponent, the top 10 of
 * its 23 mantissa bits), sums stay in fp32; a warp multiplies 16 x 8 by 8 x 8 tiles with mma.sync
 * (compute capability 8.0 and newer), its operands brought from shared memory into registers by every
 * thread, its tiles copied ahead by cp.async. Checked against cublasSgemm in strict fp32 with a tolerance from
 * TF32's mantissa, and timed beside cuBLAS in strict fp32 and in TF32, n = 127 to --max (8192), next to
 * the TF32 peak from the device facts and the measured ceiling of mma.sync itself. On a Hopper, rung 9
 * (sgemm_hopper) goes on with the instructions cuBLAS uses there.
 *   make ch5 && ./ch5_matmul/sgemm_tensor               (writes output/ch5/sgemm_tensor.csv; make figures)
 *   ./ch5_matmul/sgemm_tensor --max 2048 -r 3        (--round: inputs rounded to nearest first, slower)
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/cublas_check.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/sweep.h"
#include "../common/timer.h"

/* ==== 8. mma.sync ==== */

/* mma.sync.m16n8k8 (PTX ISA, "Matrix fragments for mma.m16n8k8") makes a warp multiply a 16 x 8 tile of
 * A by an 8 x 8 tile of B into a 16 x 8 tile of C. With g = lane / 4 and q = lane % 4, a thread holds
 *   A: a0 = A[g][q], a1 = A[g + 8][q], a2 = A[g][q + 4], a3 = A[g + 8][q + 4]
 *   B: b0 = B[q][g], b1 = B[q + 4][g]
 *   C: c0, c1 = C[g][2q], C[g][2q + 1];  c2, c3 = C[g + 8][2q], C[g + 8][2q + 1].
 * We use it rather than the nvcuda::wmma API because knowing the layout is what lets us lay out shared
 * memory so that these loads avoid bank conflicts, swap the operands' roles to load them in fewer
 * instructions and store C without a detour; wmma hides it, and in our trials ran clearly slower.
 * A block of 256 threads (8 warps, 2 x 4) computes a 128 x 256 tile of C, each warp 64 x 64 of it:
 * 8 x 4 mma tiles of 8 rows x 16 columns (the roles swapped, below), 128 accumulators per thread. */
enum { TC_BM = 128, TC_BN = 256, TC_WM = 64, TC_WN = 64, TC_THREADS = 256, TC_STAGES = 3 };

/* TF32 keeps fp32's 8-bit exponent and 10 of its 23 mantissa bits. The tensor cores ignore the low 13
 * bits of each input (truncation: off by less than 2^-10 of itself). Adding half of the last kept bit
 * first rounds to nearest (ties away from zero, within 2^-11), as cvt.rna.tf32.f32 does for every finite
 * float, in one integer add instead of a slower conversion; --round does it, at a cost (README). */
__device__ __forceinline__ unsigned round_to_tf32(float x)
{
    return __float_as_uint(x) + 0x1000u;
}

__device__ __forceinline__ void mma_tf32(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* cp.async (compute capability 8.0): a copy from global to shared memory that does not pass through
 * registers and that the thread does not wait for. `bytes` of `size` are read, the rest filled with
 * zeros (0 outside the matrix). Copies are committed in groups; wait_copies<N> waits until at most N
 * groups are still on their way. */
template <int size>
__device__ __forceinline__ void copy_async(float *dst, const float *src, int bytes)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    if (size == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(to), "l"(src), "r"(bytes));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(to), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;"); }
/* Four floats of an n x n matrix from (row, col) into shared memory, zeros outside (a 16-byte copy
 * needs 16-byte aligned rows, so n a multiple of 4). */
__device__ __forceinline__ void copy_piece(float *dst, const float *M, int n, int row, int col)
{
    if (n % 4 == 0) {  /* col is a multiple of 4: the four are all inside or all outside */
        bool in = row < n && col < n;
        copy_async<16>(dst, in ? &M[(size_t)row * n + col] : M, in ? 16 : 0);
    } else {
        for (int e = 0; e < 4; e++) {
            bool in = row < n && col + e < n;
            copy_async<4>(dst + e, in ? &M[(size_t)row * n + col + e] : M, in ? 4 : 0);
        }
    }
}
template <int N>
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

/* Where a float of a stage lies. Rows are not padded: cp.async writes a row's 128-byte pieces whole
 * only where they start 128 bytes apart (Nsight Compute counted 2.6 times the ideal wavefronts for A's
 * copies into rows padded by 4 floats). Instead the 16-byte chunks of a row trade places, chunk c going
 * to c XOR key(row), a permutation inside the row, so that the reads below avoid bank conflicts:
 * - A, rows of KS floats (CPR = KS / 4 chunks): ldmatrix reads chunk c of 8 consecutive rows; with the
 *   key (row / (8 / CPR)) % CPR they land in 8 different groups of 4 banks.
 * - B, rows of TC_BN floats: the 8-byte loads of x0, x1 below (a half-warp: rows q = 0..3 of k, 8
 *   columns each, 2 chunks) meet the key 2 (row % 4), which sends them to 8 different groups of banks. */
template <int KS>
__device__ __forceinline__ int a_index(int row, int k)
{
    constexpr int CPR = KS / 4;
    return row * KS + ((k / 4) ^ (row / (8 / CPR) % CPR)) * 4 + k % 4;
}
__device__ __forceinline__ int b_index(int k, int col)
{
    return k * TC_BN + ((col / 4) ^ (k % 4 * 2)) * 4 + col % 4;
}

/* 8. Step k by KS (32, or 16 where a block may have only 99 KiB of shared memory): TC_STAGES sets of
 * tiles rotate, so two steps are on their way while one is multiplied. Fragments are double-buffered in
 * registers: those of the next k are read while the mma of this one run, and the next step's first ones
 * right after its single barrier. The tensor cores read the top 19 bits of each 32-bit input (TF32),
 * the rest dropped; ROUND (--round) rounds each fragment to nearest first, at one integer add each. */
template <int KS, bool ROUND>
__global__ void __launch_bounds__(TC_THREADS) sgemm_tf32(const float *A, const float *B, float *C, int n)
{
#if __CUDA_ARCH__ >= 800
    constexpr int STAGE = TC_BM * KS + KS * TC_BN;
    constexpr int MT = TC_WN / 16, NT = TC_WM / 8;  /* mma tiles per warp: NT = 8 of 8 rows x MT = 4 of 16 columns */
    static_assert(KS / 8 % 2 == 0, "a step's last fragments go to buffer 1, the next step's first to 0");
    constexpr int A_COPIES = TC_BM * KS / 4 / TC_THREADS, A_PASS = TC_THREADS / (KS / 4);
    constexpr int B_COPIES = KS * TC_BN / 4 / TC_THREADS, B_PASS = TC_THREADS / (TC_BN / 4);
    extern __shared__ __align__(16) float smem[];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
    int warp_row = warp / (TC_BN / TC_WN) * TC_WM, warp_col = warp % (TC_BN / TC_WN) * TC_WN;
    int block_row = blockIdx.y * TC_BM, block_col = blockIdx.x * TC_BN, steps = (n + KS - 1) / KS;
    int a_r = tid / (KS / 4), a_k = tid % (KS / 4) * 4, b_r = tid / (TC_BN / 4), b_c = tid % (TC_BN / 4) * 4;

    const float *a_from = A + (size_t)(block_row + a_r) * n + a_k, *b_from = B + (size_t)b_r * n + block_col + b_c;
    bool inside = n % 4 == 0 && block_row + TC_BM <= n && block_col + TC_BN <= n;

    auto copy_step = [&](int step) {  /* the A and B tiles of a step into their stage */
        if (step < steps) {
            float *sA = smem + step % TC_STAGES * STAGE, *sB = sA + TC_BM * KS;
            int t = step * KS;
            if (inside && t + KS <= n) {  /* most steps: every piece whole and inside */
#pragma unroll
                for (int l = 0; l < A_COPIES; l++)
                    copy_async<16>(&sA[a_index<KS>(a_r + l * A_PASS, a_k)], a_from + (size_t)l * A_PASS * n + t, 16);
#pragma unroll
                for (int l = 0; l < B_COPIES; l++)
                    copy_async<16>(&sB[b_index(b_r + l * B_PASS, b_c)], b_from + (size_t)(t + l * B_PASS) * n, 16);
            } else {  /* the edges: zeros outside, 16 bytes at a time where rows are 16-byte aligned */
#pragma unroll
                for (int l = 0; l < A_COPIES; l++)
                    copy_piece(&sA[a_index<KS>(a_r + l * A_PASS, a_k)], A, n, block_row + a_r + l * A_PASS, t + a_k);
#pragma unroll
                for (int l = 0; l < B_COPIES; l++)
                    copy_piece(&sB[b_index(b_r + l * B_PASS, b_c)], B, n, t + b_r + l * B_PASS, block_col + b_c);
            }
        }
        commit_copies();  /* a group even when empty, so that wait_copies counts steps */
    };

    /* The mma's roles swapped: its 16 x 8 "A" is B^T (16 columns of C), its 8 x 8 "B" is A^T (8 rows of
     * C), its result a tile of C^T, so that every fragment comes in few loads:
     * - x0..x3 = B[k + q][c], B[k + q][c'], B[k + q + 4][c], B[k + q + 4][c'], with mma row g standing
     *   for column c = 2g of the 16 and row g + 8 for c' = 2g + 1: two 8-byte loads.
     * - y0, y1 = A[r + g][k + q], A[r + g][k + q + 4]: ldmatrix.x4 gives them for 2 tiles of 8 rows
     *   (lane l names row l % 8 + 8 (l / 16) and k + 4 ((l / 8) % 2) of the 4 matrices 8 x 4).
     * - C rows r + 2q and r + 2q + 1 get c0, c2 and c1, c3, at columns c and c' side by side. */
    int y_row = warp_row + lane % 8 + 8 * (lane / 16), y_k4 = 4 * (lane / 8 % 2);
    int x_at[2];  /* tiles m of 16 columns: m % 2 changes the key's bits, m / 2 adds 32 floats, beyond them */
#pragma unroll
    for (int m = 0; m < 2; m++)
        x_at[m] = b_index(q, warp_col + 16 * m + 2 * g);
    unsigned smem_address = (unsigned)__cvta_generic_to_shared(smem);
    unsigned x[2][MT][4], y[2][NT][2];
    auto read_fragments = [&](int step, int k, unsigned (&fx)[MT][4], unsigned (&fy)[NT][2]) {
        int stage = step % TC_STAGES * STAGE;
        const float *sB = smem + stage + TC_BM * KS + k * TC_BN;  /* rows k + q and k + q + 4: the same key */
#pragma unroll
        for (int m = 0; m < MT; m++) {
            const float *at = sB + x_at[m % 2] + m / 2 * 32;
            float2 low = *(const float2 *)at, high = *(const float2 *)(at + 4 * TC_BN);
            float v[4] = {low.x, low.y, high.x, high.y};
#pragma unroll
            for (int e = 0; e < 4; e++)
                fx[m][e] = ROUND ? round_to_tf32(v[e]) : __float_as_uint(v[e]);
        }
        unsigned from = smem_address + (stage + a_index<KS>(y_row, k + y_k4)) * 4;
#pragma unroll
        for (int j = 0; j < NT; j += 2) {  /* rows + 8 j: the same key */
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(fy[j][0]), "=r"(fy[j][1]), "=r"(fy[j + 1][0]), "=r"(fy[j + 1][1])
                         : "r"(from + j * 8 * KS * 4));
#pragma unroll
            for (int e = 0; e < 4 && ROUND; e++)
                fy[j + e / 2][e % 2] = round_to_tf32(__uint_as_float(fy[j + e / 2][e % 2]));
        }
    };

    float acc[MT][NT][4] = {};
    for (int s = 0; s < TC_STAGES - 1; s++)
        copy_step(s);
    wait_copies<TC_STAGES - 2>();  /* step 0 has landed, for this thread's copies */
    __syncthreads();               /* ... and everyone's */
    read_fragments(0, 0, x[0], y[0]);
    for (int step = 0; step < steps; step++) {
#pragma unroll
        for (int kk = 0; kk < KS / 8; kk++) {
            int now = kk % 2, next = 1 - now;
            if (kk < KS / 8 - 1) {
                read_fragments(step, (kk + 1) * 8, x[next], y[next]);
            } else {
                wait_copies<TC_STAGES - 3>();  /* step + 1 has landed: with 3 stages, every copy so far */
                __syncthreads();               /* everyone's, and nobody reads this step's stage any more */
                copy_step(step + TC_STAGES - 1);  /* into the stage of step - 1 */
                if (step + 1 < steps)
                    read_fragments(step + 1, 0, x[next], y[next]);
            }
#pragma unroll
            for (int m = 0; m < MT; m++)
#pragma unroll
                for (int j = 0; j < NT; j++)
                    mma_tf32(acc[m][j], x[now][m], y[now][j]);
        }
    }
#pragma unroll
    for (int m = 0; m < MT; m++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {  /* row 2q + h: c_h at column 2g, c_(2+h) at 2g + 1 */
                int row = block_row + warp_row + j * 8 + 2 * q + h, col = block_col + warp_col + m * 16 + 2 * g;
                if (row >= n || col >= n)
                    continue;
                float *p = &C[(size_t)row * n + col];
                if (n % 2 == 0)  /* col is even: 8-byte aligned, and col + 1 < n */
                    *(float2 *)p = make_float2(acc[m][j][h], acc[m][j][2 + h]);
                else {
                    p[0] = acc[m][j][h];
                    if (col + 1 < n)
                        p[1] = acc[m][j][2 + h];
                }
            }
#endif
}

/* The ceiling of mma.sync on this card, measured: each warp runs 8 independent chains of TF32 mma on
 * registers, with no memory traffic at all. No kernel built on mma.sync can pass it. */
__global__ void mma_ceiling(float *sink, int repeats)
{
#if __CUDA_ARCH__ >= 800
    float acc[8][4] = {};
    unsigned x = __float_as_uint(1.0f + threadIdx.x * 1e-3f), a[4] = {x, x, x, x}, b[2] = {x, x};
    for (int r = 0; r < repeats; r++)
#pragma unroll
        for (int i = 0; i < 8; i++)
            mma_tf32(acc[i], a, b);
    float sum = 0.0f;
    for (int i = 0; i < 8; i++)
        sum += acc[i][0] + acc[i][1] + acc[i][2] + acc[i][3];
    if (sum == 0.5f)  /* never: it keeps the compiler from dropping the loop */
        *sink = sum;
#endif
}

/* 1 where the GPU runs code built for compute capability 8.0 or newer, else 0: an A100 running a build
 * for sm_75 alone (make ARCH=75, its PTX compiled for the GPU at start-up) has the kernels above empty. */
__global__ void tf32_code_here(int *here)
{
#if __CUDA_ARCH__ >= 800
    *here = 1;
#else
    *here = 0;
#endif
}
/* ==== Host helpers ==== */

enum kernel { MMA_SYNC, CUBLAS, CUBLAS_TF32, KERNELS };
static const char *const names[KERNELS] = {"mma_sync", "cublas", "cublas_tf32"};
struct run_plan {
    int mma_ks;  /* the step along k: 32, or 16 */
    int round;   /* --round: inputs rounded to nearest TF32 in registers */
    cublasHandle_t handle;
};

/* One compiled kernel per step and rounding, picked as mma_kernels[step is 32][round]. */
typedef void (*tf32_kernel)(const float *, const float *, float *, int);
static const tf32_kernel mma_kernels[2][2] = {{sgemm_tf32<16, false>, sgemm_tf32<16, true>},
                                              {sgemm_tf32<32, false>, sgemm_tf32<32, true>}};
static size_t mma_bytes(int ks) { return (size_t)TC_STAGES * (TC_BM + TC_BN) * ks * sizeof(float); }

/* Queues product k, C = A B, on stream 0, which cuBLAS's handle uses too; `how` is the run_plan given
 * to sweep_kernels (sweep.h calls launch with it). */
static void launch(int k, const float *A, const float *B, float *C, int n, const void *how)
{
    const struct run_plan *plan = (const struct run_plan *)how;
    const float one = 1.0f, zero = 0.0f;
    dim3 mma_tiles(ceil_div(n, TC_BN), ceil_div(n, TC_BM));
    switch (k) {
    case MMA_SYNC:
        mma_kernels[plan->mma_ks == 32][plan->round]<<<mma_tiles, TC_THREADS, mma_bytes(plan->mma_ks)>>>(A, B, C, n);
        break;
    default: /* row-major C = A B is column-major C^T = B^T A^T (see blas.cu) */
        CUBLAS_CHECK(cublasSetMathMode(plan->handle, k == CUBLAS ? CUBLAS_PEDANTIC_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
        CUBLAS_CHECK(cublasSgemm(plan->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
    }
    CHECK_LAUNCH();
}

/* The TF32 ceiling of mma.sync in GFLOP/s: the median of 3 runs after a warm-up. */
static double measure_mma_ceiling(const struct device_info *dev)
{
    enum { REPEATS = 1024, WARPS = 8 };
    float *sink;
    double ms[3];
    CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
    struct timed_runs runs = timed_runs(ms, 3, 0);
    while (timed_run(&runs)) {
        mma_ceiling<<<dev->sms * 4, WARPS * 32>>>(sink, REPEATS);
        CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaFree(sink));
    double flop = 2.0 * 16 * 8 * 8 * 8 * REPEATS * WARPS * 4.0 * dev->sms;  /* 2 m n k per mma */
    return flop / (stats_of(ms, 3).median * 1e-3) / 1e9;
}

/* One size: correct first, each kernel against cublasSgemm in strict fp32 (sweep.h's TF32 bound), then
 * timed; then the size's row of the table. */
static void measure(struct sweep *sw, const struct run_plan *plan)
{
    char tile[32];  /* rows x columns of C, then k */
    snprintf(tile, sizeof tile, "%dx%dx%d%s", TC_BM, TC_BN, plan->mma_ks, plan->round ? "_rounded" : "");
    for (int k = 0; k < KERNELS; k++) {
        double error = sweep_check(sw, k, names[k]);
        sweep_time(sw, k, k == MMA_SYNC ? tile : "", error);
    }
    const double *row = sw->gflops[sw->s];
    printf("%5d %8.1f | %8.1f %8.1f | %3.0f%%\n", sw->n, row[MMA_SYNC] / 1e3, row[CUBLAS] / 1e3,
           row[CUBLAS_TF32] / 1e3, 100.0 * row[MMA_SYNC] / row[CUBLAS_TF32]);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long max_n = 8192;
    int reps = 5, small_tile = 0, round = 0;
    const char *csv_path = "output/ch5/sgemm_tensor.csv";
    struct cli_option options[] = {
        {"--max", CLI_SIZE, &max_n, 1, 16384, "largest size (default 8192)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs per point (default 5)"},
        {"--tf32-small-tile", CLI_FLAG, &small_tile, 0, 0,
         "step k by 16 in the mma.sync kernel, as on cards with 99 KiB of shared memory per block"},
        {"--round", CLI_FLAG, &round, 0, 0, "round the inputs to nearest TF32 in registers, as cvt.rna would (slower)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0,
         "write the sweep to FILE (default output/ch5/sgemm_tensor.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: float32 matrix products on the tensor cores, in TF32.", options,
                           COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    if (dev.major < 8) {
        printf("compute capability %d.%d has no TF32 tensor cores (8.0 or newer): nothing to run here.\n", dev.major,
               dev.minor);
        return NO_DEVICE_EXIT;
    }
    int *flag, built = 0;
    CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
    tf32_code_here<<<1, 1>>>(flag);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&built, flag, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(flag));
    if (!built) {
        printf("this build has no code for the TF32 tensor cores (make builds it when ARCH includes 80 or newer; "
               "ARCH=\"%d\" would do here): nothing to run.\n", dev.major * 10 + dev.minor);
        return NO_DEVICE_EXIT;
    }
    /* A, B and C on the GPU, and cuBLAS's workspace; on the host A, B and two to compare. */
    max_n = size_to_fit(&dev, "--max", max_n, 2, 3 * sizeof(float), 4 * sizeof(float), 64 << 20);

    /* The 128 x 256 tiles three steps deep need 144 KiB of shared memory per block with steps of 32,
     * 72 KiB with steps of 16. */
    struct run_plan plan = {32, round, NULL};
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    if (small_tile || prop.sharedMemPerBlockOptin < mma_bytes(32))
        plan.mma_ks = 16;
    for (int ks = 0; ks < 2; ks++)
        for (int r = 0; r < 2; r++)
            CUDA_CHECK(cudaFuncSetAttribute(mma_kernels[ks][r], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)mma_bytes(ks ? 32 : 16)));
    double tf32_peak = dev.peak_tf32_matrix_gflops;  /* the tensor cores' multiply-adds per SM per clock, x 2 */
    double ceiling = measure_mma_ceiling(&dev);

    struct sweep sw;  /* n = 127 to max_n */
    sweep_start(&sw, max_n, reps, SWEEP_TF32, csv_path);
    CUBLAS_CHECK(cublasCreate(&plan.handle));
    sweep_kernels(&sw, KERNELS, names, launch, &plan, CUBLAS);
    sweep_limit(&sw, "peak_tf32", tf32_peak);  /* the limits, as rows of their own (n = 0) */
    sweep_limit(&sw, "mma_ceiling", ceiling);
    printf("TFLOP/s, median of %d. Limits: TF32 peak %.0f (device facts), mma.sync ceiling %.0f (measured)\n", reps,
           tf32_peak / 1e3, ceiling / 1e3);
    printf("%5s %8s | %8s %8s | %s\n", "n", "mma.sync", "cuBLAS", "TF32", "mma.sync / cuBLAS TF32");
    while (sweep_next(&sw))
        measure(&sw, &plan);
    if (check(sw.failures == 0, "mma_sync and cuBLAS's TF32 at every size within the TF32 bound of cublasSgemm in "
              "strict fp32 (worst relative error %.1e; 2^-9 allowed)", sw.worst))
        return 1;  /* the temporary CSV is removed at exit: no results file from a failed run */
    sweep_tf32_summary(&sw, MMA_SYNC, CUBLAS, CUBLAS_TF32, ceiling, tf32_peak);
    sweep_finish(&sw);
    CUBLAS_CHECK(cublasDestroy(plan.handle));
    return exit_status(0);
}
