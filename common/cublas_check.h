/* cublas_check.h: check a cuBLAS call as CUDA_CHECK checks a CUDA call. Header only, for the programs
 * that link cuBLAS: the .c files of common/ do not, so that no other program needs the library.
 *   CUBLAS_CHECK(cublasSgemm(handle, ...));   on error: file:line, the call, cuBLAS's status; exit 1 */
#ifndef COMMON_CUBLAS_CHECK_H
#define COMMON_CUBLAS_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>

/* cuBLAS reports its own status type, not a cudaError_t. */
static inline void cublas_check(cublasStatus_t status, const char *call, const char *file, int line)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cublasGetStatusString(status));
    exit(1);
}

#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

#endif
