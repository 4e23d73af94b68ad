/* check.h: stop with a clear message when a CUDA call or a host allocation fails; report result checks.
 *   CUDA_CHECK(cudaMalloc(&p, bytes));        on error: file:line, the call, the CUDA error; exit 1
 *   kernel<<<g, b>>>(...); CHECK_LAUNCH();    catches a bad launch configuration at once
 *   float *a = (float *)host_alloc(bytes);    malloc or exit 1, naming the size
 *   failures += check(got == want, "sum = %g", s);   prints "check: PASS (...)" or "check: FAIL (...)";
 *                                                    returns 1 if it failed, so failures add up
 *   worst = worst_of(worst, error);           the larger, and NaN once either is NaN: NaN never passes */
#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif

void cuda_check(cudaError_t err, const char *call, const char *file, int line);
void *host_alloc(size_t bytes);
int check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double relative_error(double got, double want);
double worst_of(double worst, double error);

#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH() cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

/* The relative rounding error of one float addition, 2^-24: a float sum whose terms are all positive is
 * off by at most (additions an element goes through) x FLOAT_ROUNDING, relative. */
#define FLOAT_ROUNDING 0x1p-24

#ifdef __cplusplus
}
#endif
#endif
