/* ch5_cublas's runner stub: the student's function, as labs/ch5_cublas.cu gives it. cuBLAS's handle is
 * the lab's, not the judge's to send: it is made once, at the first call, on the default stream, and
 * given to every call. */
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>

#include "runner.h"

void lab_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k);

void lab_call(const struct lab_values *v)
{
    static cublasHandle_t handle;
    if (!handle) {
        cublasStatus_t status = cublasCreate(&handle);
        if (status == CUBLAS_STATUS_SUCCESS)
            status = cublasSetStream(handle, 0);
        if (status != CUBLAS_STATUS_SUCCESS) {  /* before the student's code: the runner's trouble, not theirs */
            fprintf(stderr, "runner: cannot make cuBLAS's handle: %s\n", cublasGetStatusString(status));
            exit(3);
        }
    }
    lab_sgemm(handle, (const float *)lab_p(v, 0), (const float *)lab_p(v, 1), (float *)lab_p(v, 2), (int)lab_i(v, 3),
              (int)lab_i(v, 4), (int)lab_i(v, 5));
}
