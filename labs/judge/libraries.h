/* libraries.h: the vendor libraries' times that bind the labs, measured on the card in use.
 *   struct stats ms = cub_sum_time(dev_x, n, reps);                   cub::DeviceReduce::Sum
 *   struct stats ms = cub_histogram_time(dev_bytes, n, 256, reps);    cub::DeviceHistogram::HistogramEven
 *   struct stats ms = cub_scan_time(dev_in, n, reps);                 cub::DeviceScan::InclusiveSum of ints
 *   struct stats ms = cublas_gemm_time(dev_a, dev_b, m, n, k, tf32, reps);   cublasSgemm on the lab's
 *                                                     own A and B; tf32: on the tensor cores in TF32
 * Compiled once (libraries.cu) so that each lab's harness builds without CUB's and cuBLAS's headers. */
#ifndef LABS_LIBRARIES_H
#define LABS_LIBRARIES_H
#include "../../common/stats.h"
#ifdef __cplusplus
extern "C" {
#endif

struct stats cub_sum_time(const float *dev_x, long long n, int reps);
struct stats cub_histogram_time(const unsigned char *dev_bytes, long long n, int bins, int reps);
struct stats cub_scan_time(const int *dev_in, long long n, int reps);
struct stats cublas_gemm_time(const float *dev_a, const float *dev_b, int m, int n, int k, int tf32, int reps);

#ifdef __cplusplus
}
#endif
#endif
