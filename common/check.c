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

int check_report(int ok, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    printf("check: %s (", ok ? "PASS" : "FAIL");
    vprintf(fmt, args);
    printf(")\n");
    va_end(args);
    fflush(stdout);
    return ok;
}

double relative_error(double got, double want)
{
    if (isnan(got) || isnan(want))
        return INFINITY;
    if (want == 0.0)
        return fabs(got);
    return fabs(got - want) / fabs(want);
}
