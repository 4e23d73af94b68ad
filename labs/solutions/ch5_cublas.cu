/* Lab ch5_cublas, a solution: row-major C = A B is column-major C^T = B^T A^T, so cuBLAS gets B first,
 * n before m, and each matrix's row length as its leading dimension (blas.cu does the same).
 *   make lab L=ch5_cublas FILE=labs/solutions/ch5_cublas.cu
 */
#include <stdio.h>

#include <cublas_v2.h>

/* The runner calls this with matrices on the GPU and cuBLAS's handle. */
void lab_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
    const float one = 1.0f, zero = 0.0f;
    /* Column-major: B^T is n x k (ld n), A^T is k x m (ld k), C^T is n x m (ld n). */
    cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
    if (status != CUBLAS_STATUS_SUCCESS)
        fprintf(stderr, "cublasSgemm: %s\n", cublasGetStatusString(status));
}
