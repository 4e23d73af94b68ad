/* sgemm_hopper.cu: going further than the French page, after sgemm_tensor: rung 9, the float32 product
 * C = A x B in TF32 the way cuBLAS does it on a Hopper (compute capability 9.0, code built for sm_90a).
 * The Tensor Memory Accelerator (TMA) copies whole tiles into a ring of shared-memory stages at the
 * request of one thread, and mbarriers say when they have landed; two warpgroups of 128 threads compute
 * a block's 256 x 128 tile of C with wgmma, each 256 x 64 of it, 8 values of k per instruction, one
 * operand read by the tensor cores from shared memory directly, while the next stages' copies are on
 * their way. Checked against cublasSgemm in strict fp32 with
 * a tolerance from TF32's mantissa, and timed beside cuBLAS in TF32, n = 127 to --max (8192), next to the
 * TF32 peak from the device facts and the measured ceiling of wgmma itself. Elsewhere it says why not.
 *   make ch5 && ./ch5_matmul/sgemm_hopper               (writes output/ch5/sgemm_hopper.csv; make figures)
 *   ./ch5_matmul/sgemm_hopper --max 2048 -r 3
 */
#include <cuda.h> /* CUtensorMap and its enums; the encoding function comes through the runtime */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/cublas_check.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/sweep.h"
#include "../common/timer.h"

/* ==== 9. Hopper: TMA, mbarriers and wgmma (sm_90a) ==== */

/* sgemm_tensor.cu's rounding, copied (tests/copies.t keeps them equal): TF32 keeps 10 of fp32's 23
 * mantissa bits, and adding half of the last kept bit rounds to nearest before the tensor cores drop
 * the low 13. */
__device__ __forceinline__ unsigned round_to_tf32(float x)
{
    return __float_as_uint(x) + 0x1000u;
}

/* The instructions below exist only on compute capability 9.0, and only in code built for sm_90a (the
 * "a" features, which later GPUs do not promise to keep): elsewhere the kernels are empty and the
 * program says why the rung is absent (hopper_code_here). Names in quotes are sections of the PTX ISA.
 *
 * Which operand goes where. wgmma multiplies M x K by K x N with M = 64 per warpgroup (4 warps). Its
 * second operand always comes from shared memory, and for TF32 it must be "K-major": consecutive k
 * side by side. A's rows are (A[i][k], A[i][k + 1] are neighbours); B's are not (B[k][j] and B[k + 1][j]
 * are a row apart). So we compute the tile of C^T = B^T A^T: A's tile is wgmma's B operand, read by
 * the tensor cores from shared memory, and B's tile is wgmma's A operand, which may come from registers,
 * where each thread puts what it reads itself. A block has three warpgroups: one producer, whose single
 * thread asks the TMA for tiles, and two consumers, each 256 rows x 64 columns of C's 256 x 128 tile.
 * B's tile comes as boxes of WG_BOX columns: 128 bytes, the width of the TMA's swizzle. */
enum { WG_ROWS = 256, WG_COLS = 128, WG_K = 32, WG_BOX = 32, WG_STAGES = 4, WG_THREADS = 384, WG_GROUP = 8 };

/* A block's shared memory: a ring of WG_STAGES stages, each the tiles of A and B of one step along k as
 * the TMA writes them (rows of 128 bytes, their 16-byte chunks swizzled), then the mbarriers that pass
 * each stage between the producer and the consumers. */
struct wg_stage {
    float a[WG_ROWS][WG_K];                   /* A's tile: 256 rows of 32 k ("K-major") */
    float b[WG_COLS / WG_BOX][WG_K][WG_BOX];  /* B's tile: 4 boxes of 32 k x 32 columns */
};
struct wg_shared {
    struct wg_stage stage[WG_STAGES];
    unsigned long long full[WG_STAGES];   /* stage s has landed */
    unsigned long long empty[WG_STAGES];  /* the 8 consumer warps are done with stage s */
};
/* 4 stages of 48 KiB and the barriers, and 1 KiB to align them (the 128-byte swizzle repeats every 1024
 * bytes): 193 KiB, one block per SM. */
static const size_t WG_SMEM = sizeof(struct wg_shared) + 1024;

__device__ __forceinline__ unsigned shared_address(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* An mbarrier ("mbarrier") is a 64-bit counter in shared memory with a phase bit: a phase completes when
 * `count` threads have arrived and every byte announced with expect_tx has landed; waiting names the
 * parity of the phase to wait for. The instructions take its shared-memory address. */
__device__ __forceinline__ void barrier_init(unsigned long long *bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count));
}
__device__ __forceinline__ void barrier_expect_bytes(unsigned long long *bar, int bytes)  /* and arrive */
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void barrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
__device__ __forceinline__ void barrier_wait(unsigned long long *bar, int parity)
{
    unsigned at = shared_address(bar), done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(at), "r"(parity) : "memory");
}
/* "cp.async.bulk.tensor": the TMA copies the box at column x, row y of the tensor that `map` describes
 * to `to` in shared memory, zeros where the box leaves the matrix, and counts its bytes on `bar`. */
__device__ __forceinline__ void tma_load(void *to, const CUtensorMap *map, int x, int y, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0],"
                 " [%1, {%2, %3}], [%4];" ::"r"(shared_address(to)), "l"((unsigned long long)map), "r"(x), "r"(y),
                 "r"(shared_address(bar)) : "memory");
}

/* "wgmma.mma_async": d (64 x 256, fp32) += a (64 x 8, TF32, registers) x b (8 x 256, TF32, shared memory,
 * described by `desc`), in wgmma's own terms: here d is a piece of C^T, 256 rows x 64 columns of C, with
 * k = 8. PTX has no arrays: the 128 accumulators of a thread are named one by one. The
 * fragments ("Register Fragments", as CUTLASS's ALayout_64x8 and CLayout_64x256 spell them): warp w of
 * the warpgroup holds rows 16w + g and 16w + g + 8, with g = lane / 4 and q = lane % 4, and
 *   a0 = a[g][q], a1 = a[g + 8][q], a2 = a[g][q + 4], a3 = a[g + 8][q + 4]
 *   d[4j], d[4j + 1] = d[g][8j + 2q], d[g][8j + 2q + 1];  d[4j + 2], d[4j + 3] = the same in row g + 8. */
#define D4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define D16(i) D4(i), D4(i + 4), D4(i + 8), D4(i + 12)
#define D64(i) D16(i), D16(i + 16), D16(i + 32), D16(i + 48)
__device__ __forceinline__ void wgmma_tf32(float (&d)[128], const unsigned (&a)[4], unsigned long long desc)
{
    asm volatile("{ .reg .pred add; setp.ne.b32 add, %133, 0;\n"  /* add to d (not: overwrite it) */
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
                 "}, {%128, %129, %130, %131}, %132, add, 1, 1; }"
                 : D64(0), D64(64)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "n"(1));
}
/* "Matrix Descriptor Format": where a K-major tile starts (bits 0-13, address / 16), 1024 bytes from one
 * 8-row group to the next (bits 32-45, / 16) and the 128-byte swizzle that the TMA wrote it with (bit 62).
 * Each row holds WG_K = 32 floats = 128 bytes; the k-th group of 8 starts 32 k bytes in: desc + 2 k. */
__device__ __forceinline__ unsigned long long tile_descriptor(unsigned address)
{
    return (unsigned long long)((address & 0x3FFFF) >> 4) | 1ull << 16 |
           (unsigned long long)(1024 >> 4) << 32 | 1ull << 62;
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }

/* 9. The block's 256 x 128 tile of C, in steps of 32 along k through a ring of WG_STAGES stages: `full`
 * says a stage has landed, `empty` that its 8 consumer warps are done with it. Blocks are numbered so
 * that WG_GROUP row tiles go down together: the GPU's first wave then reads 8 row tiles of A and a
 * sixteenth of B instead of 2 and all of B, and more of both are still in L2 when reused. */
__global__ void __launch_bounds__(WG_THREADS, 1)
    sgemm_wgmma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float *C, int n)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char raw[];
    struct wg_shared *smem = (struct wg_shared *)(raw + (1024 - shared_address(raw) % 1024) % 1024);
    /* Which tile of C: the blocks go down in groups of WG_GROUP row tiles, a group column by column. */
    int block = blockIdx.x;
    int column_tiles = (n + WG_COLS - 1) / WG_COLS;
    int row_tiles = (n + WG_ROWS - 1) / WG_ROWS;
    int group_blocks = WG_GROUP * column_tiles;                 /* the blocks of a whole group */
    int group_row_tile = block / group_blocks * WG_GROUP;       /* the group's first row tile */
    int group_rows = min(row_tiles - group_row_tile, WG_GROUP);  /* its row tiles: fewer in the last group */
    int in_group = block % group_blocks;                        /* this block's place in its group */
    int row0 = (group_row_tile + in_group % group_rows) * WG_ROWS;  /* the tile's first row */
    int col0 = in_group / group_rows * WG_COLS;                     /* and its first column */
    int steps = (n + WG_K - 1) / WG_K;                              /* steps along k */
    int warpgroup = threadIdx.x / 128;                          /* 0: the producer; 1 and 2: the consumers */
    int t = threadIdx.x % 128;                                  /* the thread in its warpgroup */
    if (threadIdx.x == 0) {
        for (int s = 0; s < WG_STAGES; s++) {
            barrier_init(&smem->full[s], 1);
            barrier_init(&smem->empty[s], 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");  /* visible to the TMA too */
    }
    __syncthreads();
    if (warpgroup == 0) {
        /* "setmaxnreg": the producer gives back registers it does not need (168 -> 40 per thread), so that
         * the consumers may take 232 each: 128 x 40 + 256 x 232 fits the SM's 65536. Without it the
         * consumers, squeezed into 168, ran 10-15% slower. */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (t == 0)
            for (int step = 0; step < steps; step++) {
                int s = step % WG_STAGES;
                struct wg_stage *stage = &smem->stage[s];
                barrier_wait(&smem->empty[s], (step / WG_STAGES + 1) % 2);  /* the first round passes at once */
                barrier_expect_bytes(&smem->full[s], sizeof(struct wg_stage));
                tma_load(stage->a, &map_a, step * WG_K, row0, &smem->full[s]);  /* 256 rows x 32 k of A */
                for (int box = 0; box < WG_COLS / WG_BOX; box++)             /* 32 k x 32 columns of B, 4 times */
                    tma_load(stage->b[box], &map_b, col0 + WG_BOX * box, step * WG_K, &smem->full[s]);
            }
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    /* A consumer's fragment rows are columns of C, and their order is ours to choose: row g of a warp
     * takes column `col` and row g + 8 column col + 1, so that a thread reads both with one 8-byte load.
     * The TMA wrote each 128-byte row k of B's boxes with its 16-byte chunks swizzled (chunk c at
     * c ^ (k % 8)); the chunks picked here put a half-warp's 16 loads in 16 different pairs of banks. */
    int consumer = warpgroup - 1;  /* 0 or 1: the tile's columns 64 x consumer on, 64 of them */
    int warp = t / 32;             /* in the warpgroup */
    int lane = t % 32;
    int g = lane / 4;              /* the fragments' g and q, as above */
    int q = lane % 4;
    int box = 2 * consumer + warp / 2;                     /* B's box of 32 columns that the warp reads */
    int chunk = 2 * (warp % 2) + g / 4 + 4 * (g / 2 % 2);  /* the 16-byte chunk of the box's rows it reads */
    int in_box = 4 * chunk + 2 * (g % 2);                  /* the first of its two columns in the box */
    float d[128];
    for (int i = 0; i < 128; i++)
        d[i] = 0.0f;
    unsigned frag[2][WG_K / 8][4];
    auto multiply = [&](int s, unsigned (&f)[WG_K / 8][4]) {  /* a stage: read B's fragments, 4 wgmma */
        const struct wg_stage *stage = &smem->stage[s];
#pragma unroll
        for (int kk = 0; kk < WG_K / 8; kk++)
#pragma unroll
            for (int h = 0; h < 2; h++) {  /* k = q, then k = q + 4 */
                int k = 8 * kk + q + 4 * h;
                float2 v = *(const float2 *)&stage->b[box][k][(chunk ^ (k % 8)) * 4 + 2 * (g % 2)];
                f[kk][2 * h] = round_to_tf32(v.x);
                f[kk][2 * h + 1] = round_to_tf32(v.y);
            }
        wgmma_fence();  /* registers written above, before wgmma reads them */
        unsigned long long desc = tile_descriptor(shared_address(stage->a));
#pragma unroll
        for (int kk = 0; kk < WG_K / 8; kk++)
            wgmma_tf32(d, f[kk], desc + 2 * kk);
        wgmma_commit();
    };
    for (int step = 0; step < steps; step++) {
        int s = step % WG_STAGES;
        barrier_wait(&smem->full[s], step / WG_STAGES % 2);
        if (step % 2 == 0)  /* two sets of fragment registers: one is read while the other's wgmma run */
            multiply(s, frag[0]);
        else
            multiply(s, frag[1]);
        wgmma_wait<1>();  /* the previous stage's wgmma are done: its stage and registers are free */
        if (step > 0 && lane == 0)
            barrier_arrive(&smem->empty[(step - 1) % WG_STAGES]);
    }
    wgmma_wait<0>();
    /* d[4j + h] is C[row0 + 8j + 2q + h][col] and d[4j + 2 + h] its right neighbour. */
    int col = col0 + WG_BOX * box + in_box;
#pragma unroll
    for (int j = 0; j < 32; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int row = row0 + 8 * j + 2 * q + h;
            if (row >= n || col >= n)
                continue;
            float *p = &C[(size_t)row * n + col];
            if (n % 2 == 0)  /* col is even: 8-byte aligned, and col + 1 < n */
                *(float2 *)p = make_float2(d[4 * j + h], d[4 * j + 2 + h]);
            else {
                p[0] = d[4 * j + h];
                if (col + 1 < n)
                    p[1] = d[4 * j + 2 + h];
            }
        }
#endif
}

/* The ceiling of wgmma: two warpgroups per SM issue m64n256k8 back to back, one group always in flight,
 * from registers and a tile of shared memory whose contents do not matter. */
__global__ void __launch_bounds__(256, 1) wgmma_ceiling(float *sink, int repeats)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char raw[];
    unsigned long long desc = tile_descriptor((shared_address(raw) + 1023) / 1024 * 1024);
    float d[128];
    for (int i = 0; i < 128; i++)
        d[i] = 0.0f;
    unsigned x = __float_as_uint(1.0f + threadIdx.x * 1e-3f), a[4] = {x, x, x, x};
    for (int r = 0; r < repeats; r++) {
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
            wgmma_tf32(d, a, desc + 2 * kk);
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    float sum = 0.0f;
    for (int i = 0; i < 128; i++)
        sum += d[i];
    if (sum == 0.5f)  /* never: it keeps the compiler from dropping the loop */
        *sink = sum;
#endif
}

/* 1 where the GPU runs code built for sm_90a (a Hopper, and `make` with ARCH including 90), else 0. */
__global__ void hopper_code_here(int *here)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    *here = 1;
#else
    *here = 0;
#endif
}
/* ==== Host helpers ==== */

enum kernel { WGMMA, CUBLAS, CUBLAS_TF32, KERNELS };
static const char *const names[KERNELS] = {"wgmma", "cublas", "cublas_tf32"};
struct run_plan {
    int ld;                     /* the rows' length: n, or n rounded up to 4 in the padded copies */
    float *padded_a, *padded_b; /* where n % 4 != 0: the TMA needs rows that start 16 bytes apart */
    CUtensorMap map_a, map_b;
    cublasHandle_t handle;
};

/* cuTensorMapEncodeTiled is the driver's; the runtime hands us its address, so that nothing links
 * against the driver library. A map describes an n x n matrix of floats with rows ld floats apart,
 * cut in boxes of 32 columns (128 bytes, the swizzle's width) x box_rows, swizzled as wgmma reads them. */
typedef CUresult (*encode_tiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                 const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static CUtensorMap tensor_map(encode_tiled encode, const float *M, int n, int ld, int box_rows)
{
    CUtensorMap map;
    cuuint64_t size[2] = {(cuuint64_t)n, (cuuint64_t)n}, stride[1] = {(cuuint64_t)ld * sizeof(float)};
    cuuint32_t box[2] = {32, (cuuint32_t)box_rows}, step[2] = {1, 1};
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)M, size, stride, box, step,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  /* zeros outside the matrix */
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "error: cuTensorMapEncodeTiled failed (%d) for n = %d\n", (int)r, n);
        exit(1);
    }
    return map;
}

/* Queues product k, C = A B, on stream 0, which cuBLAS's handle uses too; `how` is the run_plan given
 * to sweep_kernels (sweep.h calls launch with it). With n % 4 != 0, wgmma first copies A and B into rows
 * of ld floats: part of its time, as it is part of its work. */
static void launch(int k, const float *A, const float *B, float *C, int n, const void *how)
{
    const struct run_plan *plan = (const struct run_plan *)how;
    const float one = 1.0f, zero = 0.0f;
    switch (k) {
    case WGMMA:
        if (plan->ld != n) {
            size_t row = n * sizeof(float), padded = plan->ld * sizeof(float);
            CUDA_CHECK(cudaMemcpy2DAsync(plan->padded_a, padded, A, row, row, n, cudaMemcpyDeviceToDevice, 0));
            CUDA_CHECK(cudaMemcpy2DAsync(plan->padded_b, padded, B, row, row, n, cudaMemcpyDeviceToDevice, 0));
        }
        sgemm_wgmma<<<ceil_div(n, WG_COLS) * ceil_div(n, WG_ROWS), WG_THREADS, WG_SMEM>>>(plan->map_a, plan->map_b,
                                                                                          C, n);
        break;
    default: /* row-major C = A B is column-major C^T = B^T A^T (see blas.cu) */
        CUBLAS_CHECK(cublasSetMathMode(plan->handle, k == CUBLAS ? CUBLAS_PEDANTIC_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
        CUBLAS_CHECK(cublasSgemm(plan->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
    }
    CHECK_LAUNCH();
}

/* The TF32 ceiling of wgmma in GFLOP/s: the median of 3 runs after a warm-up. */
static double measure_ceiling(int sms)
{
    enum { REPEATS = 1024 };
    float *sink;
    double ms[3];
    CUDA_CHECK(cudaMalloc(&sink, sizeof(float)));
    struct timed_runs runs = timed_runs(ms, 3, 0);
    while (timed_run(&runs)) {
        wgmma_ceiling<<<sms, 256, 33 << 10>>>(sink, REPEATS);
        CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaFree(sink));
    double flop = 2.0 * 64 * 256 * 8 * 4 * REPEATS * 2 * sms;  /* 2 m n k per wgmma, 4 per repeat, 2 warpgroups */
    return flop / (stats_of(ms, 3).median * 1e-3) / 1e9;
}

/* One size: the tensor maps of its A and B, then, correct first, each kernel against cublasSgemm in
 * strict fp32 (sweep.h's TF32 bound), then timed; then the size's row of the table. */
static void measure(struct sweep *sw, struct run_plan *plan, encode_tiled encode)
{
    int n = sw->n;
    plan->ld = (int)ceil_div(n, 4) * 4;
    /* The maps describe the matrices themselves, or their padded copies. */
    plan->map_a = tensor_map(encode, plan->ld == n ? sw->dA : plan->padded_a, n, plan->ld, WG_ROWS);
    plan->map_b = tensor_map(encode, plan->ld == n ? sw->dB : plan->padded_b, n, plan->ld, WG_K);
    char tile[32];  /* rows x columns of C, then k */
    snprintf(tile, sizeof tile, "%dx%dx%d", WG_ROWS, WG_COLS, WG_K);
    for (int k = 0; k < KERNELS; k++) {
        double error = sweep_check(sw, k, names[k]);
        sweep_time(sw, k, k == WGMMA ? tile : "", error);
    }
    const double *row = sw->gflops[sw->s];
    printf("%5d %8.1f | %8.1f %8.1f | %3.0f%%\n", n, row[WGMMA] / 1e3, row[CUBLAS] / 1e3, row[CUBLAS_TF32] / 1e3,
           100.0 * row[WGMMA] / row[CUBLAS_TF32]);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long max_n = 8192;
    int reps = 5;
    const char *csv_path = "output/ch5/sgemm_hopper.csv";
    struct cli_option options[] = {
        {"--max", CLI_SIZE, &max_n, 1, 16384, "largest size (default 8192)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs per point (default 5)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0,
         "write the sweep to FILE (default output/ch5/sgemm_hopper.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: TF32 matrix products with Hopper's TMA and wgmma.", options,
                           COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    /* The wgmma kernel exists only where the GPU runs code built for sm_90a. */
    int *flag, hopper = 0;
    CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
    hopper_code_here<<<1, 1>>>(flag);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&hopper, flag, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(flag));
    if (!hopper) {
        printf("no wgmma here: it needs compute capability 9.0 (this GPU is %d.%d) and a build for sm_90a (make builds "
               "one when ARCH includes 90); Blackwell's tensor cores take tcgen05 instead. sgemm_tensor runs on any "
               "GPU from 8.0.\n", dev.major, dev.minor);
        return NO_DEVICE_EXIT;
    }
    /* A, B, C and their padded copies on the GPU, and cuBLAS's workspace; on the host A, B and two to compare. */
    max_n = size_to_fit(&dev, "--max", max_n, 2, 5 * sizeof(float), 4 * sizeof(float), 64 << 20);
    struct run_plan plan = {0, NULL, NULL, {}, {}, NULL};
    encode_tiled encode = NULL;
    /* cuTensorMapEncodeTiled as CUDA 12.0 defined it. The call that names the version came with CUDA 12.5 (13.0
     * deprecates the other); before it, the runtime gives the version it was built for, 12.0 or later too. */
    cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault,
                                                &found));
#else
    CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", (void **)&encode, cudaEnableDefault, &found));
#endif
    if (found != cudaDriverEntryPointSuccess || !encode) {  /* success, with no function, where the driver lacks it */
        fprintf(stderr, "error: this driver has no cuTensorMapEncodeTiled (status %d): it needs CUDA 12.0 or later\n",
                (int)found);
        return 1;
    }
    CUDA_CHECK(cudaFuncSetAttribute(sgemm_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)WG_SMEM));
    CUDA_CHECK(cudaFuncSetAttribute(wgmma_ceiling, cudaFuncAttributeMaxDynamicSharedMemorySize, 33 << 10));
    double tf32_peak = dev.peak_tf32_matrix_gflops;  /* the tensor cores' multiply-adds per SM per clock, x 2 */
    double ceiling = measure_ceiling(dev.sms);

    struct sweep sw;  /* n = 127 to max_n */
    sweep_start(&sw, max_n, reps, SWEEP_TF32, csv_path);
    size_t padded = (size_t)max_n * ceil_div(max_n, 4) * 4;
    CUDA_CHECK(cudaMalloc(&plan.padded_a, padded * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&plan.padded_b, padded * sizeof(float)));
    CUBLAS_CHECK(cublasCreate(&plan.handle));
    sweep_kernels(&sw, KERNELS, names, launch, &plan, CUBLAS);
    sweep_limit(&sw, "peak_tf32", tf32_peak);  /* the limits, as rows of their own (n = 0) */
    sweep_limit(&sw, "wgmma_ceiling", ceiling);
    printf("TFLOP/s, median of %d. Limits: TF32 peak %.0f (device facts), wgmma ceiling %.0f (measured)\n", reps,
           tf32_peak / 1e3, ceiling / 1e3);
    printf("%5s %8s | %8s %8s | %s\n", "n", "wgmma", "cuBLAS", "TF32", "wgmma / cuBLAS TF32");
    while (sweep_next(&sw))
        measure(&sw, &plan, encode);
    if (check(sw.failures == 0, "wgmma and cuBLAS's TF32 at every size within the TF32 bound of cublasSgemm in "
              "strict fp32 (worst relative error %.1e; 2^-9 allowed)", sw.worst))
        return 1;  /* the temporary CSV is removed at exit: no results file from a failed run */
    sweep_tf32_summary(&sw, WGMMA, CUBLAS, CUBLAS_TF32, ceiling, tf32_peak);
    sweep_finish(&sw);
    CUBLAS_CHECK(cublasDestroy(plan.handle));
    CUDA_CHECK(cudaFree(plan.padded_a));
    CUDA_CHECK(cudaFree(plan.padded_b));
    return exit_status(0);
}
