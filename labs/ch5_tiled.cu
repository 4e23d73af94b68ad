/* Lab ch5_tiled: a matrix product in shared-memory tiles (chapter 5, the French page's shared-memory
 * kernel).
 *
 * Write the kernel matmul: C = A B, with A m x k, B k x n and C m x n, all row-major floats. Each block
 * of TILE x TILE threads computes one TILE x TILE tile of C, thread (tx, ty) its element (row, col).
 * Walk along k one tile at a time: the block loads a TILE x TILE tile of A and one of B into __shared__
 * memory (each thread one element of each, 0 where the tile overhangs the matrix), waits, adds the
 * TILE products its element needs from them, and waits again before the next tile overwrites them.
 * m, n and k are rarely multiples of TILE: count the tiles with a ceiling, and guard the write of C.
 *
 * Contract:
 *   sizes: checked m x n x k = 1 x 1 x 1, 31 x 33 x 32, 33 x 31 x 17, 64 x 64 x 1025, 1025 x 33 x 7,
 *     7 x 1025 x 129, 257 x 255 x 1000, 4096 x 4096 x 4096 (4,096 elements sampled); timed 4096^3.
 *   pointers: A, B and C, each its own cudaMalloc of exactly its floats: 256-byte aligned, never offset;
 *     rows are not padded (a row of A starts 16-byte aligned only when k is a multiple of 4).
 *   zero: m, n and k are at least 1.
 *   values: A and B of magnitudes uniform in [1, 2), all 23 mantissa bits random, each with a random sign,
 *     drawn afresh for every call; C arrives filled with NaN.
 *   index: 32-bit: every matrix is below 2^31 elements (at most 2^24 here).
 *   binding: the Rules line and its fixed launch; the walk along k a tile at a time is the course's
 *     solution.
 *
 * Rules: the launch below is fixed; no cuBLAS, no tensor cores. A and B hold floats of either sign with
 * full mantissas, and C may be off by fp32's rounding of its sums only: TF32's is ten times that.
 * Target: 70% of the course's solution's speed; the limit is cuBLAS's SGEMM (strict fp32).
 * Reach: this design cannot come near cuBLAS. With one element of C a thread, every multiply-add makes two
 *   shared-memory loads, and those, not the FP32 units, set the pace: the course's own 32 x 32 kernel of
 *   this design (ch5_matmul/sgemm_ladder, "shared") reaches 8,553 GFLOP/s at n = 4096 on the H200, 17% of
 *   cuBLAS's 51,033 GFLOP/s. More of C a thread, fewer loads a multiply-add, is ch5_register_tile's lesson.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch5_tiled
 */

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* your code here */
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(TILE, TILE), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
