/* Lab ch5_register_tile: each thread computes a 4 x 4 tile of C in registers (chapter 5, going further:
 * sgemm_ladder.cu's register-tile rungs).
 *
 * Write the kernel matmul: C = A B as in ch5_tiled, but a block of 16 x 16 threads now computes a 64 x 64
 * tile of C, and thread (tx, ty) the 16 elements at rows ty + 16 r and columns tx + 16 c, r and c from 0
 * to 3, in a float acc[4][4] that the compiler keeps in registers. For each step of BK = 16 along k the
 * block loads a 64 x 16 tile of A and a 16 x 64 tile of B into __shared__ memory (4 elements of each per
 * thread, 0 where they overhang), waits, then for each i < 16 reads 4 values of A's tile and 4 of B's
 * into registers and does the 16 multiply-adds they allow: 16 for 8 shared reads, where ch5_tiled did 1
 * for 2. Wait again before the next load. Guard every load and every write of C.
 *
 * Rules: the launch below is fixed; no cuBLAS, no tensor cores. A and B hold floats of either sign with
 * full mantissas, and C may be off by fp32's rounding of its sums only: TF32's is ten times that.
 * Target: 70% of the course's solution's speed; the limit is cuBLAS's SGEMM (strict fp32).
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
