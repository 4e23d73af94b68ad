/* reduction.h: the judge of the two reduction labs (ch2_block_sum, ch2_warp_sum), which differ only in
 * how a block adds its threads' sums. The student's two-pass sum is checked against the CPU's (in
 * double) at sizes around a warp and a block, a prime and 2^26 + 1, run twice on the same data to catch
 * a race, then timed against CUB. The sum is one float, which a file could compute once and keep: before
 * each timed run, 16 elements of x get new values (from the seed and the run's number), the reference
 * follows, and the scratch and the result are poisoned. Included by the two judges after they define
 * THREADS, the statements' block size. */
#ifndef LABS_REDUCTION_H
#define LABS_REDUCTION_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include "libraries.h"

#ifndef THREADS
#error "define THREADS, the statement's block size, before including reduction.h"
#endif

/* The seed's streams: x, and the timed runs' changes (which elements, their new values). */
enum { X_STREAM = 1, CHANGED_INDEX_STREAM, CHANGED_VALUE_STREAM };
enum { CHANGED = 16 };  /* elements of x changed before each timed run */

/* The float additions an element goes through: its thread's (one per pass of the grid), the block's,
 * and the second pass's (its thread's and its block's). Each is off by 2^-24 at most, relative, for
 * positive terms. The statement's launch: 32 x sms blocks, then one. */
static double additions(long long n, int sms, int block_additions)
{
    long long threads = 32LL * sms * THREADS;
    return (n + threads - 1) / threads + block_additions + (32 * sms + THREADS - 1) / THREADS + block_additions;
}

/* One call of lab_sum(x, n, partial, result, sms): partial, room for 32 x sms floats, is poisoned
 * scratch; result is poisoned, and read back into *got. */
static void sum_call(struct lab_call *c, const float *x, long long n, float *got, int sms)
{
    lab_call_start(c);
    lab_in(c, x, n * sizeof(float));
    lab_int(c, n);
    lab_scratch(c, 32 * sms * sizeof(float));
    lab_out(c, NULL, got, sizeof(float));
    lab_int(c, sms);
}

/* Before timed run `run` (-1: the warm-up): CHANGED elements of x, on the host and on the GPU, get
 * values of `jump` or more, and *sum follows them. */
static void change_inputs(const struct lab *lab, float *x, float *dev_x, long long n, int run, double jump,
                          double *sum)
{
    for (int k = 0; k < CHANGED; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGED + k;
        long long i = (long long)(lab_bits(lab->seed, CHANGED_INDEX_STREAM, draw) % (unsigned long long)n);
        float v = (float)(jump * (1.0 + lab_uniform(lab->seed, CHANGED_VALUE_STREAM, draw)));
        *sum += (double)v - x[i];
        x[i] = v;
        CUDA_CHECK(cudaMemcpy(dev_x + i, &v, sizeof v, cudaMemcpyHostToDevice));
    }
}

static int reduction_lab(int argc, char **argv, const char *title, int block_additions)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    const int sms = lab.dev.sms;
    const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float));
    for (long long i = 0; i < n_max; i++)
        x[i] = lab_uniform(lab.seed, X_STREAM, i) + 0.5f;  /* positive: the sum's relative error is bounded */
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        float got;
        struct lab_call c;
        sum_call(&c, x, n, &got, sms);
        if (lab_run(&lab, &c))
            break;
        double want = 0.0, first_block = 0.0;
        for (long long i = 0; i < n; i++)
            want += x[i];
        for (long long i = 0; i < n && i < THREADS; i++)
            first_block += x[i];
        double count = additions(n, sms, block_additions);
        char what[32], why[128];
        snprintf(what, sizeof what, "n = %lld", n);
        snprintf(why, sizeof why, "%.0f float additions an element goes through, each off by 2^-24", count);
        float want_float = (float)want;
        if (lab_check_floats(&lab, what, &got, &want_float, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (n > THREADS && fabs(got - first_block) <= 1e-3 * first_block)
                lab_hint(&lab, "the result is the sum of the first %d elements only: the first block's", THREADS);
            else if (got > 1.5 * want)
                lab_hint(&lab, "the sum is too large: is an element, or a partial sum, counted twice?");
        } else if (k == COUNT_OF(sizes) - 2) {
            /* The same call again, on the same data: a race can change the result from run to run. */
            float again;
            sum_call(&c, x, n, &again, sms);
            if (lab_run(&lab, &c))
                break;
            if (!lab_same_twice(&lab, &got, &again, sizeof got))
                lab.failures++;
        }
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The limit: CUB's sum of the same array, in memory of the judge's own (as the runner's is its own). */
    size_t bytes = n_max * sizeof(float);
    float *own = (float *)lab_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(own, x, bytes, cudaMemcpyHostToDevice));
    struct stats cub = cub_sum_time(own, n_max, reps);
    CUDA_CHECK(cudaFree(own));
    print_bandwidth("cub", "cub::DeviceReduce::Sum", cub, 4.0 * n_max, 0, "");

    /* The timed runs. New values like the old ones, in [0.5, 1.5), would move the sum by a few units, far
     * inside the tolerance (about 400 at 2^26 elements on a GPU of 132 SMs): each changed element gets
     * `jump` or more, so that every run's sum is ten tolerances or more away from the run's before. */
    float *dev_x = (float *)lab_shared(&lab, bytes);
    float *partial = (float *)lab_shared(&lab, 32 * sms * sizeof(float));
    float *result = (float *)lab_shared(&lab, sizeof(float));
    CUDA_CHECK(cudaMemcpy(dev_x, x, bytes, cudaMemcpyHostToDevice));
    double sum = 0.0, count = additions(n_max, sms, block_additions);
    for (long long i = 0; i < n_max; i++)
        sum += x[i];
    const double jump = 10 * count * FLOAT_ROUNDING * sum / CHANGED;
    char why[128];
    snprintf(why, sizeof why, "%.0f float additions an element goes through, each off by 2^-24", count);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_x);
    lab_int(&c, n_max);
    lab_use(&c, partial);
    lab_use(&c, result);
    lab_int(&c, sms);
    static struct lab_sample s;
    s.output = result, s.size = 4, s.n = 1;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    float last = NAN;
    while (lab_clock_next(&clock)) {
        change_inputs(&lab, x, dev_x, n_max, clock.run, jump, &sum);
        lab_poison(partial, 32 * sms * sizeof(float));
        lab_poison(result, sizeof(float));
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        float got = lab_sample_float(&s, 0), want = (float)sum;
        char what[32];
        snprintf(what, sizeof what, "timed run %d", clock.run + 1);
        if (lab_check_floats(&lab, what, &got, &want, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (got == last)
                lab_hint(&lab, "the sum is the run's before, although %d elements of x changed since: each run "
                               "must add up the x it is given", CHANGED);
            break;
        }
        last = got;
    }
    if (!lab.failures) {
        printf("  every timed run's sum was right, with %d elements of x changed before each run\n", CHANGED);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 4.0 * n_max, "GB/s", 4.0 * n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    free(x);
    return lab_end(&lab);
}

#endif
