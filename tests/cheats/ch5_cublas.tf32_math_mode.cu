/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch5_cublas asks for SGEMM in
 * fp32 ("no TF32 math mode: the check expects fp32's rounding"). This file switches the handle to
 * CUBLAS_TF32_TENSOR_OP_MATH for the large product (k of 2048 or more) and back to the default for the
 * small ones, where TF32's rounding would show: the tensor cores then run the product about ten times
 * faster. The old judge drew positive inputs and allowed k roundings of fp32 at k = 4096, which TF32's
 * errors, averaging out over 4096 positive products, stay inside: on an H200, PASS at 562% of the
 * solution.
 * Why it must fail: the inputs have full 24-bit mantissas over both signs, and the bound is one TF32
 * exceeds ten times or more: a wrong result. */
#include <cublas_v2.h>

/* The runner calls this with matrices on the GPU and cuBLAS's handle. */
void lab_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
    const float one = 1.0f, zero = 0.0f;
    cublasSetMathMode(handle, k >= 2048 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
    /* Row-major C = A B is column-major C^T = B^T A^T. */
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
}
