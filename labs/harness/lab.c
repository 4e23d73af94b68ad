/* lab.c: see lab.h. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lab_start(struct lab *lab, int argc, char **argv, const char *title, int *reps)
{
    memset(lab, 0, sizeof *lab);
    struct cli_option options[] = {
        {"-r", CLI_INT, reps, 1, 10000, "timed runs"},
        {"--small", CLI_FLAG, &lab->small, 0, 0, "the small sizes only, no timing (for compute-sanitizer)"},
        {"--time-only", CLI_FLAG, &lab->time_only, 0, 0, "time without checking (a file already checked)"},
    };
    int device = cli_parse(argc, argv, title, options, COUNT_OF(options));
    device_start(device, &lab->dev);
    printf("%s\n", title);
}

int lab_skip(const struct lab *lab, long long elements)
{
    return lab->time_only || (lab->small && elements > LAB_SMALL_ELEMENTS);
}

/* "element 5" or "element (row 2, column 7)". */
static void say_where(char *text, size_t size, long long i, long long cols)
{
    if (cols > 0)
        snprintf(text, size, "element (row %lld, column %lld)", i / cols, i % cols);
    else
        snprintf(text, size, "element %lld", i);
}

/* After a failed check: what the wrong elements have in common, when it is a known signature. */
static void hint_pattern(struct lab *lab, long long first, long long last, long long wrong, long long poisoned,
                         long long n)
{
    if (poisoned == wrong)
        lab_hint(lab, "every wrong element still holds the poison the output was filled with: no thread wrote "
                      "it. Do your threads (or your loop) reach every index up to n - 1?");
    else if (n > 64 && first > 0 && first >= n - n / 8 - 32)  /* in 64 elements or fewer, all is tail */
        lab_hint(lab, "only the last elements are wrong (from %lld of %lld): look at the tail, the part of n "
                      "that is not a whole number of blocks or tiles", first, n);
    else if (wrong == n - 1 && first == 1)
        lab_hint(lab, "only the first element is right: did every result come from the first block's, or the "
                      "first thread's, work?");
    (void)last;
}

int lab_check_floats(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                     long long cols, double tolerance, const char *why)
{
    long long wrong = 0, first = -1, last = -1, poisoned = 0;
    for (long long i = 0; i < n; i++) {
        double error = fabs((double)got[i] - want[i]);
        if (!(error <= tolerance * fabs((double)want[i]))) {  /* NaN is wrong */
            wrong++;
            poisoned += isnan(got[i]);
            if (first < 0)
                first = i;
            last = i;
        }
    }
    if (!wrong) {
        printf("  %s: PASS (every element within %.1e, relative)\n", what, tolerance);
        return 0;
    }
    if (lab->failures >= 3) {  /* three full reports say enough; the rest in a line each */
        printf("  %s: FAIL, %lld of %lld elements wrong\n", what, wrong, n);
        lab->failures++;
        return 1;
    }
    char where[96];
    say_where(where, sizeof where, first, cols);
    printf("  %s: FAIL, %lld of %lld elements wrong; first: %s, expected %.9g, got %.9g\n"
           "    (tolerance %.1e relative: %s)\n", what, wrong, n, where, want[first], got[first], tolerance, why);
    hint_pattern(lab, first, last, wrong, poisoned, n);
    lab->failures++;
    return 1;
}

int lab_check_uints(struct lab *lab, const char *what, const unsigned *got, const unsigned *want, long long n,
                    long long cols)
{
    long long wrong = 0, first = -1, last = -1, poisoned = 0;
    for (long long i = 0; i < n; i++)
        if (got[i] != want[i]) {
            wrong++;
            poisoned += got[i] == 0xffffffffu;
            if (first < 0)
                first = i;
            last = i;
        }
    if (!wrong) {
        printf("  %s: PASS (every element exact)\n", what);
        return 0;
    }
    if (lab->failures >= 3) {
        printf("  %s: FAIL, %lld of %lld elements wrong\n", what, wrong, n);
        lab->failures++;
        return 1;
    }
    char where[96];
    say_where(where, sizeof where, first, cols);
    printf("  %s: FAIL, %lld of %lld elements wrong; first: %s, expected %u, got %u (integers: exact)\n", what,
           wrong, n, where, want[first], got[first]);
    hint_pattern(lab, first, last, wrong, poisoned, n);
    lab->failures++;
    return 1;
}

void lab_hint(struct lab *lab, const char *fmt, ...)
{
    if (lab->hinted >= 2)  /* the first signatures are the telling ones */
        return;
    for (int k = 0; k < lab->hinted; k++)
        if (lab->said[k] == fmt)  /* the same signature at the next size: said already */
            return;
    lab->said[lab->hinted++] = fmt;
    va_list args;
    va_start(args, fmt);
    printf("  hint: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

int lab_same_twice(struct lab *lab, const void *first, const void *second, size_t bytes)
{
    if (memcmp(first, second, bytes) == 0)
        return 1;
    lab_hint(lab, "two runs on the same data gave different results: a race (a missing __syncthreads(), or "
                  "a += on memory other threads write, that should be an atomicAdd)");
    return 0;
}

struct stats lab_time(struct lab *lab, int reps, void (*run)(void *), void *arg, int wall_clock)
{
    double *ms = (double *)host_alloc(reps * sizeof *ms);
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    for (int r = -1; r < reps; r++) {  /* r = -1: the warm-up */
        double start = wall_seconds();
        if (!wall_clock)
            gpu_timer_start(&timer, 0);
        run(arg);
        CHECK_LAUNCH();
        double t = wall_clock ? (CUDA_CHECK(cudaDeviceSynchronize()), (wall_seconds() - start) * 1e3)
                              : gpu_timer_stop(&timer);
        if (r >= 0)
            ms[r] = t;
        else
            say_runs_take(t, reps);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    gpu_timer_destroy(&timer);
    struct stats s = stats_of(ms, reps);
    free(ms);
    (void)lab;
    return s;
}

/* The timed line, then the lines labs/check.sh reads: the median, the percentage of the limit, and the
 * target a hand-out without solutions uses (a share of the limit, set well below the solution's). */
void lab_report(struct lab *lab, struct stats ms, double amount, const char *unit, double limit,
                const char *limit_name, int target_of_limit)
{
    if (strcmp(unit, "GB/s") == 0)
        print_bandwidth("your code", ms, amount, limit, limit_name);
    else
        print_flops("your code", ms, amount, limit, limit_name);
    double rate = amount / (ms.median * 1e-3) / 1e9;
    printf("lab-median-ms %.6g\nlab-percent-of-limit %.1f\nlab-target-of-limit %d\nlab-limit %s\n", ms.median,
           100.0 * rate / limit, target_of_limit, limit_name);
    (void)lab;
}

int lab_end(struct lab *lab)
{
    if (!lab->time_only)
        printf("lab-correct %s\n", lab->failures ? "no" : "yes");
    return exit_status(lab->failures);
}

void *lab_device_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    lab_poison(p, bytes);
    return p;
}

void lab_poison(void *dev, size_t bytes)
{
    CUDA_CHECK(cudaMemset(dev, LAB_POISON_BYTE, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

float lab_random(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;  /* Numerical Recipes' LCG: fixed seed, same data everywhere */
    return (*state >> 8) * (1.0f / 16777216.0f);
}
