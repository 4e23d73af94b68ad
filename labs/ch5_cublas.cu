/* Lab ch5_cublas: C = A B by cuBLAS, on row-major matrices (chapter 5: blas.cu, and the reference of
 * every rung of the ladder).
 *
 * Write lab_sgemm: C = A B by one call of cublasSgemm, where A is m x k, B is k x n and C is m x n, all
 * row-major floats on the GPU: element (i, j) of A is A[i * k + j]. The runner made the handle once
 * (cublasCreate), on the default stream, and passes it.
 * The trap: cuBLAS is column-major, as Fortran is. It reads element (i, j) of a matrix at M[i + j * ld],
 * where ld, the leading dimension, is at least the matrix's number of rows. Read that way, a row-major
 * matrix is its own transpose: the m x k A is the column-major k x m A^T, with ld = k. So ask cuBLAS for
 * C^T = B^T A^T: the column-major n x m C^T (ld = n) is, byte for byte, the row-major C. That puts B
 * first, swaps m and n, and makes each leading dimension the length of a row of the row-major matrix.
 *   cublasSgemm(handle, opX, opY, M, N, K, &alpha, X, ldx, Y, ldy, &beta, Z, ldz)
 * computes Z = alpha opX(X) opY(Y) + beta Z, column-major, with opX(X) M x K, opY(Y) K x N and Z M x N;
 * CUBLAS_OP_N leaves a matrix as it is, CUBLAS_OP_T transposes it. alpha and beta are the addresses of
 * host floats. It returns a cublasStatus_t: CUBLAS_STATUS_INVALID_VALUE when a leading dimension is
 * smaller than its matrix's rows (cublasGetStatusString names a status).
 *
 * Contract:
 *   sizes: checked m x n x k = 1 x 1 x 1, 2 x 3 x 4, 3 x 2 x 5, 33 x 17 x 5, 17 x 33 x 64, 64 x 1 x 100,
 *     1 x 64 x 100, 100 x 37 x 1, 257 x 129 x 65, 129 x 257 x 300, 1000 x 999 x 513, 4096 x 4096 x 4096
 *     (4,096 elements sampled); timed 4096^3.
 *   pointers: A, B and C, each its own cudaMalloc of exactly its floats: 256-byte aligned, never offset.
 *   zero: m, n and k are at least 1.
 *   values: A and B of magnitudes uniform in [1, 2), all 23 mantissa bits random, each with a random sign,
 *     drawn afresh for every call; C arrives filled with NaN.
 *   index: cuBLAS's: its int sizes and leading dimensions stay below 2^31 (at most 4096 here).
 *   binding: the Rules line and C; one call of cublasSgemm is the lesson (rules.txt refuses any kernel).
 *
 * Rules: cuBLAS's SGEMM in fp32 (no TF32 math mode: the check expects fp32's rounding); no kernel of
 * your own.
 * Target: 70% of the course's solution's speed; the limit is the judge's own cublasSgemm on the same
 * matrices, on the same GPU (the course's solution runs at about 90% of it on an H200).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch5_cublas
 */
#include <cublas_v2.h>

/* The runner calls this with matrices on the GPU and cuBLAS's handle. */
void lab_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
    /* your code here */
}
