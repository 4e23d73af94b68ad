/* stats.c: see stats.h. */
#include "stats.h"
#include "csv.h"

#include <math.h>
#include <stdarg.h>
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

/* The results file of --csv (main names it with results_to): one row for each line printed by print_*
 * and each record_value. It is opened at the first row, after device_start has chosen the GPU that its
 * first line names (csv.h). */
static const char *results_path;
static FILE *results;

void results_to(const char *path)
{
    results_path = path;
}

static FILE *results_file(void)
{
    if (!results && results_path)
        results = csv_open(results_path,
                           "key,measurement,runs,median_ms,mean_ms,std_ms,min_ms,max_ms,rate,unit,percent,of");
    return results;
}

/* A key is what the tables look a row up by: a name that needs no quoting, checked on every run (with or
 * without a file) so that a program's wrong key shows in its first test. */
static void check_key(const char *key)
{
    int good = key && key[0] >= 'a' && key[0] <= 'z';
    for (const char *c = key; good && *c; c++)
        good = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
    if (!good) {
        fprintf(stderr, "results: the key '%s' is not a snake_case name ([a-z][a-z0-9_]*)\n", key ? key : "(null)");
        exit(1);
    }
}

/* A row; commas in the texts become semicolons, so that the columns stay columns. */
static void record(const char *key, const char *label, struct stats ms, double rate, const char *unit,
                   double percent, const char *of)
{
    check_key(key);
    if (!results_file())
        return;
    char text[3][128];
    const char *from[3] = {label, unit, of};
    for (int k = 0; k < 3; k++) {
        snprintf(text[k], sizeof text[k], "%s", from[k] ? from[k] : "");
        for (char *c = text[k]; *c; c++)
            if (*c == ',' || *c == '\n')
                *c = ';';
    }
    char timing[160] = ",,,,,";
    if (ms.count > 0)
        snprintf(timing, sizeof timing, "%d,%.6g,%.6g,%.6g,%.6g,%.6g", ms.count, ms.median, ms.mean, ms.std, ms.min,
                 ms.max);
    char rate_text[32] = "", percent_text[32] = "";
    if (!isnan(rate))
        snprintf(rate_text, sizeof rate_text, "%.6g", rate);
    if (!isnan(percent))
        snprintf(percent_text, sizeof percent_text, "%.4g", percent);
    csv_row(results, "%s,%s,%s,%s,%s,%s,%s", key, text[0], timing, rate_text, text[1], percent_text, text[2]);
}

void record_value(const char *key, const char *measurement, double value, const char *unit)
{
    struct stats none = {0, NAN, NAN, NAN, NAN, NAN};
    record(key, measurement, none, value, unit, NAN, "");
}

int exit_status(int failures)
{
    if (!failures && results_file())
        csv_close(results);  /* else output.h removes the temporary file at exit: no file of a failed run */
    results = NULL;
    results_path = NULL;
    return failures ? 1 : 0;
}

/* One line, the same in every program, under the measurement it answers. */
void print_article(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    printf("  article: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

static void print_median(const char *label, struct stats ms)
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

void print_time(const char *key, const char *label, struct stats ms)
{
    print_median(label, ms);
    record(key, label, ms, NAN, "", NAN, "");
}

void print_bandwidth(const char *key, const char *label, struct stats ms, double bytes, double limit_gbs,
                     const char *limit_name)
{
    double gbs = bytes / (ms.median * 1e-3) / 1e9;
    print_median(label, ms);
    printf("  %7.1f GB/s", gbs);
    if (limit_gbs > 0)
        printf(" = %5.1f%% %s", 100.0 * gbs / limit_gbs, limit_name);
    printf("\n");
    record(key, label, ms, gbs, "GB/s", limit_gbs > 0 ? 100.0 * gbs / limit_gbs : NAN, limit_gbs > 0 ? limit_name : "");
}

void print_flops(const char *key, const char *label, struct stats ms, double flops, double limit_gflops,
                 const char *limit_name)
{
    double gflops = flops / (ms.median * 1e-3) / 1e9;
    print_median(label, ms);
    printf("  %8.1f GFLOP/s", gflops);
    if (limit_gflops > 0)
        printf(" = %5.1f%% %s", 100.0 * gflops / limit_gflops, limit_name);
    printf("\n");
    record(key, label, ms, gflops, "GFLOP/s", limit_gflops > 0 ? 100.0 * gflops / limit_gflops : NAN,
           limit_gflops > 0 ? limit_name : "");
}
