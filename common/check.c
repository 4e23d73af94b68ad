/* check.c: see check.h. */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call,
            cudaGetErrorName(err), cudaGetErrorString(err));
    exit(1);
}

void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory: %zu bytes (%.2f GiB) asked for; try a smaller size (-n)\n", bytes,
                bytes / 1073741824.0);
        exit(1);
    }
    return p;
}

int check(int ok, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    printf("check: %s (", ok ? "PASS" : "FAIL");
    vprintf(fmt, args);
    printf(")\n");
    va_end(args);
    fflush(stdout);
    return !ok;
}

double relative_error(double got, double want)
{
    if (isnan(got) || isnan(want))
        return INFINITY;
    if (want == 0.0)
        return fabs(got);
    return fabs(got - want) / fabs(want);
}

double worst_of(double worst, double error)
{
    return isnan(worst) || error <= worst ? worst : error;  /* error NaN: not <= anything, so kept */
}
