/* libraries.cu: see libraries.h. Each limit is timed as the course's programs time theirs: a warm-up, then
 * reps runs between CUDA events, the median. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/cub.cuh>
#include <cublas_v2.h>

#include "../../common/check.h"
#include "../../common/cublas_check.h"
#include "../../common/timer.h"
#include "libraries.h"

/* The runs of one library call, timed by the course's one loop (common/timer.h); `call` queues it once.
 * Quiet: a judge's output says nothing of how long its own limits take to measure. */
#define TIME_CALLS(reps, call)                                                                        \
    do {                                                                                               \
        double *ms = (double *)host_alloc((reps) * sizeof(double));                                    \
        struct timed_runs runs = timed_runs(ms, (reps), 0);                                            \
        runs.quiet = 1;                                                                                \
        while (timed_run(&runs))                                                                       \
            call;                                                                                      \
        result = stats_of(ms, (reps));                                                                 \
        free(ms);                                                                                      \
    } while (0)

struct stats cub_sum_time(const float *dev_x, long long n, int reps)
{
    struct stats result;
    float *dev_sum;
    void *scratch = NULL;
    size_t scratch_bytes = 0;
    CUDA_CHECK(cudaMalloc(&dev_sum, sizeof(float)));
    CUDA_CHECK(cub::DeviceReduce::Sum(scratch, scratch_bytes, dev_x, dev_sum, n));
    CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
    TIME_CALLS(reps, CUDA_CHECK(cub::DeviceReduce::Sum(scratch, scratch_bytes, dev_x, dev_sum, n)));
    CUDA_CHECK(cudaFree(scratch));
    CUDA_CHECK(cudaFree(dev_sum));
    return result;
}

struct stats cub_histogram_time(const unsigned char *dev_bytes, long long n, int bins, int reps)
{
    struct stats result;
    unsigned *dev_bins;
    void *scratch = NULL;
    size_t scratch_bytes = 0;
    CUDA_CHECK(cudaMalloc(&dev_bins, bins * sizeof(unsigned)));
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(scratch, scratch_bytes, dev_bytes, dev_bins, bins + 1, 0, bins, n));
    CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
    TIME_CALLS(reps, CUDA_CHECK(cub::DeviceHistogram::HistogramEven(scratch, scratch_bytes, dev_bytes, dev_bins,
                                                                    bins + 1, 0, bins, n)));
    CUDA_CHECK(cudaFree(scratch));
    CUDA_CHECK(cudaFree(dev_bins));
    return result;
}

/* CUB's single-pass scan (a decoupled look-back too) of n ints into n ints, in memory of its own. */
struct stats cub_scan_time(const int *dev_in, long long n, int reps)
{
    struct stats result;
    if (n > INT_MAX) {  /* CUB before CCCL 2.7 takes an int count */
        fprintf(stderr, "cub_scan_time: n = %lld is above INT_MAX\n", n);
        exit(1);
    }
    int *dev_out;
    void *scratch = NULL;
    size_t scratch_bytes = 0;
    CUDA_CHECK(cudaMalloc(&dev_out, n * sizeof(int)));
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch, scratch_bytes, dev_in, dev_out, (int)n));
    CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
    TIME_CALLS(reps, CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch, scratch_bytes, dev_in, dev_out, (int)n)));
    CUDA_CHECK(cudaFree(scratch));
    CUDA_CHECK(cudaFree(dev_out));
    return result;
}

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS is given B first. tf32: the handle may round
 * the inputs to TF32 and use the tensor cores (CUBLAS_TF32_TENSOR_OP_MATH); else its default, fp32. */
struct stats cublas_gemm_time(const float *a, const float *b, int m, int n, int k, int tf32, int reps)
{
    struct stats result;
    float *c, one = 1.0f, zero = 0.0f;
    CUDA_CHECK(cudaMalloc(&c, (size_t)m * n * sizeof(float)));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    if (tf32)
        CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));
    TIME_CALLS(reps,
               CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n)));
    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaFree(c));
    return result;
}
