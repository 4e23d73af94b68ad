/* reduction.h: the judge of the three reduction labs (ch2_block_sum, ch2_warp_sum and
 * ch2_cooperative_groups), which differ only in how a block adds its threads' sums. The student's two-pass
 * sum is checked against the CPU's (in double) at sizes around a warp and a block, a prime and 2^26 + 1,
 * run twice on the same data to catch a race, then timed against CUB. Every call, each size and each
 * timed run, has an x of its own, drawn from lab_fresh: its values in [scale / 2, 3 scale / 2), the scale
 * drawn for the call between 2^-30 and 2^31, so that neither the values nor the sum's size can be known
 * before the call. Before each timed run the judge writes the whole of x afresh and poisons the scratch
 * and the result: a sum kept from a run before, or anything a file left in x, is worth nothing. Included
 * by the three judges after they define THREADS, the statements' block size. */
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

/* A call's seed's streams: x, and its range's scale. */
enum { X_STREAM = 1, SCALE_STREAM };
enum { SPAN = 30 };  /* a scale is 1 to 2 times 2^-SPAN .. 2^SPAN: every value and sum a normal float */

/* A call's range of x, [scale / 2, 3 scale / 2). The statements promise no range. The values are positive,
 * so that the sum's rounding stays bounded relative to the sum itself (a sum of mixed signs can cancel to
 * nothing) and a sum too small means values lost; each is at least a third of the largest, as in [0.5,
 * 1.5), so that one element lost or counted twice moves a small sum past the tolerance; and the scale
 * spans 61 binades, so that no sum can be guessed from n. */
static void x_range(unsigned long long s, float *low, float *high)
{
    int binade = (int)lab_below(s, SCALE_STREAM, 0, 2 * SPAN + 1) - SPAN;
    float scale = ldexpf(1.0f + lab_uniform(s, SCALE_STREAM, 1), binade);
    *low = 0.5f * scale, *high = 1.5f * scale;
}

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

static const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};

/* Every size, each with an x of its own; the second largest run twice on the same x. */
static void check_sizes(struct lab *lab, int block_additions)
{
    const int sms = lab->dev.sms;
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        float low, high;
        x_range(s, &low, &high);
        for (long long i = 0; i < n; i++)
            x[i] = lab_value(s, X_STREAM, i, low, high);
        float got;
        struct lab_call c;
        sum_call(&c, x, n, &got, sms);
        if (lab_run(lab, &c))
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
        if (lab_check_floats(lab, what, &got, &want_float, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (n > THREADS && fabs(got - first_block) <= 1e-3 * first_block)
                lab_hint(lab, "the result is the sum of the first %d elements only: the first block's", THREADS);
            else if (got > 1.5 * want)
                lab_hint(lab, "the sum is too large: is an element, or a partial sum, counted twice?");
        } else if (k == COUNT_OF(sizes) - 2) {
            /* The same call again, on the same data: a race can change the result from run to run. */
            float again;
            sum_call(&c, x, n, &again, sms);
            if (lab_run(lab, &c))
                break;
            if (!lab_same_twice(lab, &got, &again, sizeof got))
                lab->failures++;
        }
    }
    free(x);
}

/* The timed runs at the largest size. Before each, the judge draws a new x, fills its own copy and sums
 * it on the GPU in double (lab_sum_on_gpu: the reference, made from memory the runner never sees), then
 * poisons the scratch and the result and, last, writes the same x into the buffer the runner reads. */
static void time_runs(struct lab *lab, int reps, int block_additions)
{
    const int sms = lab->dev.sms;
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = n_max * sizeof(float);

    /* The limit: CUB's sum of an array like x, in memory of the judge's own (as the runner's is its own),
     * which then holds each timed run's x for the reference. */
    float *own = (float *)lab_device_alloc(bytes);
    unsigned long long s = lab_fresh(lab);
    float low, high;
    x_range(s, &low, &high);
    lab_fill_floats(own, n_max, s, X_STREAM, low, high);
    struct stats cub = cub_sum_time(own, n_max, reps);
    print_bandwidth("cub", "cub::DeviceReduce::Sum", cub, 4.0 * n_max, 0, "");

    float *dev_x = (float *)lab_shared(lab, bytes);
    float *partial = (float *)lab_shared(lab, 32 * sms * sizeof(float));
    float *result = (float *)lab_shared(lab, sizeof(float));
    double count = additions(n_max, sms, block_additions);
    char why[128];
    snprintf(why, sizeof why, "%.0f float additions an element goes through, each off by 2^-24", count);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_x);
    lab_int(&c, n_max);
    lab_use(&c, partial);
    lab_use(&c, result);
    lab_int(&c, sms);
    static struct lab_sample sample;
    sample.output = result, sample.size = 4, sample.n = 1;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    float last = NAN;
    while (lab_clock_next(&clock)) {
        s = lab_fresh(lab);
        x_range(s, &low, &high);
        lab_fill_floats(own, n_max, s, X_STREAM, low, high);
        float want = (float)lab_sum_on_gpu(own, n_max);
        lab_poison(partial, 32 * sms * sizeof(float));
        lab_poison(result, sizeof(float));
        lab_sample_draw(lab, &sample);
        lab_fill_floats(dev_x, n_max, s, X_STREAM, low, high);  /* every element of x, just before the call */
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        float got = lab_sample_float(&sample, 0);
        char what[32];
        snprintf(what, sizeof what, "timed run %d", clock.run + 1);
        if (lab_check_floats(lab, what, &got, &want, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (got == last)
                lab_hint(lab, "the sum is the run's before, although x was drawn afresh since: each run must add up "
                              "the x it is given");
            break;
        }
        last = got;
    }
    if (!lab->failures) {
        printf("  every timed run's sum was right, with x drawn afresh before each run\n");
        lab_report(lab, lab_clock_stats(lab, &clock), 4.0 * n_max, "GB/s", 4.0 * n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    CUDA_CHECK(cudaFree(own));
}

static int reduction_lab(int argc, char **argv, const char *title, int block_additions)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    if (!lab.time)
        check_sizes(&lab, block_additions);
    else
        time_runs(&lab, reps, block_additions);
    return lab_end(&lab);
}

#endif
