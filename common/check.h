/* check.h: stop with a clear message when a CUDA call fails, and report result checks.
 *   CUDA_CHECK(cudaMalloc(&p, bytes));   on error: file:line, the call, the CUDA error; exit 1
 *   kernel<<<g, b>>>(...); CHECK_LAUNCH();   catches a bad launch configuration at once
 *   check_report(ok, "sum = %g", s);         prints "check: PASS (...)" or "check: FAIL (...)" */
#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif

void cuda_check(cudaError_t err, const char *call, const char *file, int line);
int check_report(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double relative_error(double got, double want);

#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH() cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
