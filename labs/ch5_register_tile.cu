/* Lab ch5_register_tile: each thread computes a 4 x 4 tile of C in registers (chapter 5, going further:
 * sgemm_ladder.cu's register-tile rungs).
 *
 * Write the kernel matmul: C = A B as in ch5_tiled, but a block of 16 x 16 threads now computes a 64 x 64
 * tile of C (the fixed launch), 16 elements a thread, in a float acc[4][4] that the compiler keeps in
 * registers. The course's solution, as advice: thread (tx, ty) takes rows ty + 16 r and columns tx + 16 c,
 * r and c from 0 to 3; for each step of BK = 16 along k the block loads a 64 x 16 tile of A and a 16 x 64
 * tile of B into __shared__ memory (4 elements of each per thread, 0 where they overhang), waits, then for
 * each i < 16 reads 4 values of A's tile and 4 of B's into registers and does the 16 multiply-adds they
 * allow: 16 for 8 shared reads, where ch5_tiled did 1 for 2; it waits again before the next load. Whatever
 * the scheme, guard every load and every write of C.
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
 *   binding: the Rules line and its fixed launch; which elements a thread computes and how the tiles are
 *     loaded and read are the course's solution.
 *
 * Rules: the launch below is fixed; no cuBLAS, no tensor cores. A and B hold floats of either sign with
 * full mantissas, and C may be off by fp32's rounding of its sums only: TF32's is ten times that.
 * Target: 70% of the course's solution's speed; the limit is cuBLAS's SGEMM (strict fp32).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch5_register_tile
 */

#define BM 64  /* rows of C a block computes */
#define BN 64  /* columns */
#define BK 16  /* the step along k */

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* your code here */
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
