/* Refused: ch5_tiled's product done by cuBLAS (its header, then its call). */
#include <cublas_v2.h>

void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    cublasHandle_t handle;
    float one = 1.0f, zero = 0.0f;
    cublasCreate(&handle);
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
    cublasDestroy(handle);
}
