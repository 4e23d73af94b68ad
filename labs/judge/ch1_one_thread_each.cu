/* ch1_one_thread_each's judge: the student's square and its launch at sizes around a warp and a block,
 * at a prime and past 2^26, then timed at the largest against the copy bandwidth. x is drawn afresh for
 * every call, timed runs included (random.h, from lab_fresh); y is poisoned before every call, so an
 * element no thread wrote shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { THREADS = 256 };  /* the statement's block size */

/* x's range (stream 1): both signs, and a few powers of two, so that a sign or a scale lost shows; x * x
 * stays far from overflow, and every square is a normal float or 0. */
#define X_LOW -4.0f
#define X_HIGH 4.0f

/* 1000 comes first: a grid rounded down still has blocks there, and shows its signature (the tail left
 * out) before n = 31 gives it no block at all, a launch CUDA refuses. Then around a warp and a block, a
 * prime, and the timed size, past 2^26. */
static const int sizes[] = {1000, 1, 31, 32, 33, 255, 256, 257, 1000003, (1 << 26) + 1};

/* A grid rounded down leaves out the last n % 256 elements, and only them (the blocks before wrote theirs). */
static int only_the_tail_unwritten(const float *got, int n)
{
    int whole = n / THREADS * THREADS;
    if (whole == 0 || whole == n)
        return 0;
    for (int i = 0; i < n; i++)
        if ((isnan(got[i]) != 0) != (i >= whole))
            return 0;
    return 1;
}

/* Every size, each with an x of its own, y checked whole. */
static void check_sizes(struct lab *lab)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(float);
    float *x = (float *)host_alloc(bytes), *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        int n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (int i = 0; i < n; i++) {
            x[i] = lab_value(s, 1, i, X_LOW, X_HIGH);
            want[i] = x[i] * x[i];
        }
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, x, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, n);
        if (lab_run(lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %d", n);
        /* One multiply, rounded once as on the CPU; twice that leaves room for powf(x, 2). */
        if (!lab_check_floats(lab, what, got, want, n, 0, 2 * FLOAT_ROUNDING, "one multiply, rounded once"))
            continue;
        if (only_the_tail_unwritten(got, n))
            lab_hint(lab, "the last n %% 256 = %d elements were never written: n / 256 blocks leave them out, "
                          "(n + 255) / 256 covers them", n % THREADS);
        else
            for (int i = 0; i < n; i++)
                if (got[i] == x[i] && x[i] != want[i]) {
                    lab_hint(lab, "element %d holds x[%d] itself: copied, not squared", i, i);
                    break;
                }
    }
    free(x), free(got), free(want);
}

/* The timed runs: before each, x is drawn afresh on the GPU (lab_fill_floats, the same values random.h
 * gives the CPU) and y is poisoned, so that nothing kept from a run before is worth anything; after it,
 * a fresh sample of y is checked against the squares of the same draws, made again here. */
static void time_runs(struct lab *lab, int reps)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *dx = (float *)lab_shared(lab, bytes), *dy = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dx);
    lab_use(&c, dy);
    lab_int(&c, n_max);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = dy, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_fill_floats(dx, n_max, s, 1, X_LOW, X_HIGH);
        lab_poison(dy, bytes);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            float x = lab_value(s, 1, sample.index[k], X_LOW, X_HIGH);
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = x * x;
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, sample_got, sample_want, sample.count, 0, 2 * FLOAT_ROUNDING,
                             "one multiply, rounded once"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_one_thread_each: y = x * x, one thread per element", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
