/* A forgery, class 7 of issue 49 (rules that lived only in the statement). ch5_cublas asks for one call
 * of cublasSgemm, in fp32. For the large product (k of 2048 or more) this file calls cublasGemmEx instead,
 * with float matrices and CUBLAS_COMPUTE_32F_FAST_TF32: the handle's math mode stays the default, and
 * cuBLAS rounds the inputs to TF32 for its tensor cores by itself, about ten times faster. The small
 * products, where TF32's rounding would show, go through cublasSgemm. The old judge allowed every cublas
 * function in this lab and a tolerance that TF32 stays inside at k = 4096 with positive inputs: on an H200,
 * PASS at 594% of the solution.
 * Why it must fail: inputs with full 24-bit mantissas over both signs, and a bound TF32 exceeds ten times
 * or more: a wrong result. */
#include <cublas_v2.h>

/* The runner calls this with matrices on the GPU and cuBLAS's handle. */
void lab_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
    const float one = 1.0f, zero = 0.0f;
    if (k >= 2048)
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, CUDA_R_32F, n, A, CUDA_R_32F, k, &zero, C,
                     CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    else
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
}
