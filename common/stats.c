/* stats.c: see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats stats_of(const double *values, int count)
{
    struct stats s = {count, NAN, NAN, NAN, NAN, NAN};
    if (count <= 0)
        return s;
    double *sorted = malloc(count * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, values, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    s.min = sorted[0];
    s.max = sorted[count - 1];
    s.median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    double sum = 0.0;
    for (int i = 0; i < count; i++)
        sum += sorted[i];
    s.mean = sum / count;
    double squares = 0.0;
    for (int i = 0; i < count; i++)
        squares += (sorted[i] - s.mean) * (sorted[i] - s.mean);
    s.std = count > 1 ? sqrt(squares / (count - 1)) : 0.0;  /* sample standard deviation */
    free(sorted);
    return s;
}

void print_time(const char *label, struct stats ms)
{
    double scale = 1.0;
    const char *unit = "ms";
    if (ms.median < 1.0) {
        scale = 1e3;
        unit = "us";
    } else if (ms.median >= 1e3) {
        scale = 1e-3;
        unit = "s";
    }
    printf("  %-28s median %8.2f %s  (mean %.2f +- %.2f %s, %d runs)", label, ms.median * scale, unit,
           ms.mean * scale, ms.std * scale, unit, ms.count);
}

void print_bandwidth(const char *label, struct stats ms, double bytes, double limit_gbs,
                     const char *limit_name)
{
    double gbs = bytes / (ms.median * 1e-3) / 1e9;
    print_time(label, ms);
    printf("  %7.1f GB/s", gbs);
    if (limit_gbs > 0)
        printf(" = %5.1f%% %s", 100.0 * gbs / limit_gbs, limit_name);
    printf("\n");
}

void print_flops(const char *label, struct stats ms, double flops, double limit_gflops,
                 const char *limit_name)
{
    double gflops = flops / (ms.median * 1e-3) / 1e9;
    print_time(label, ms);
    printf("  %8.1f GFLOP/s", gflops);
    if (limit_gflops > 0)
        printf(" = %5.1f%% %s", 100.0 * gflops / limit_gflops, limit_name);
    printf("\n");
}
