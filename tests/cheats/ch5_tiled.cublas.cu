/* A cheat: cuBLAS's product instead of the student's. */
#include <cublas_v2.h>

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k) {}

void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    static cublasHandle_t handle;
    if (!handle)
        cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f;
    /* Row-major C = A B is column-major C^T = B^T A^T. */
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
}
