/* ch2_shared_reverse's judge: the student's reverse_segments under the statement's launch (a block of 256
 * threads for each segment of 256) at sizes under, at and around a segment, with and without a shorter
 * last segment, then timed past 2^26 elements against the copy bandwidth. in is drawn afresh for every
 * call, timed runs included (from lab_fresh): any finite float, sign, exponent and mantissa all drawn, so
 * that a copy must keep every bit. out is poisoned before every call, so an element no thread wrote
 * shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { SEGMENT = 256 };  /* the statement's segment, and block */
enum { IN_STREAM = 1 };  /* a call's seed's stream for in: lab_any_float (random.h), any finite float */

static const int sizes[] = {1, 31, 32, 255, 256, 257, 512, 1000, 65613, 1000003, (1 << 26) + 77};

/* ==== The reference and the hints ==== */

/* Where out[i] comes from: each segment reversed within its own length. */
static int mirrored(int i, int n)
{
    int first = i / SEGMENT * SEGMENT;
    int length = n - first < SEGMENT ? n - first : SEGMENT;
    return first + length - 1 - (i - first);
}

/* What the first wrong element says: a copy, the whole array reversed, or the short last segment alone wrong. */
static void hint_for(struct lab *lab, const float *got, const float *in, const float *want, int n)
{
    int i = 0;
    while (i < n && got[i] == want[i])
        i++;
    int last_first = (n - 1) / SEGMENT * SEGMENT;
    if (i == n)
        return;
    if (got[i] == in[i])
        lab_hint(lab, "element %d holds in[%d]: copied, not reversed (read the tile at the mirrored place)", i, i);
    else if (got[i] == in[n - 1 - i])
        lab_hint(lab, "element %d holds in[%d], from the other end of the whole array: each block reverses only its "
                      "own segment, from first = blockIdx.x * 256 on", i, n - 1 - i);
    else if (i >= last_first && n % SEGMENT && !isnan(got[i]))
        lab_hint(lab, "every wrong element is in the last segment, which holds only n %% 256 = %d elements: it is "
                      "reversed within them (its first element goes to its own last place, first + length - 1)",
                 n % SEGMENT);
}

/* ==== Checks and timed runs ==== */

/* Shorter than a segment, around a warp and a segment, whole segments, a short last segment after many
 * whole ones, a prime; each with an in of its own, out checked whole. */
static void check_sizes(struct lab *lab)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(float);
    float *in = (float *)host_alloc(bytes), *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        int n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (int i = 0; i < n; i++)
            in[i] = lab_any_float(s, IN_STREAM, i);
        for (int i = 0; i < n; i++)
            want[i] = in[mirrored(i, n)];
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, in, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, n);
        if (lab_run(lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %d", n);
        if (lab_check_floats(lab, what, got, want, n, 0, 0, "a copy: exact"))
            hint_for(lab, got, in, want, n);
    }
    free(in), free(want), free(got);
}

/* The timed runs at the largest size, whose last segment is short too: before each, out is poisoned and
 * in written whole with a fresh draw; after it, a fresh sample of out is checked against the same draw's
 * elements, made again here at the mirrored places. */
static void time_runs(struct lab *lab, int reps)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *d_in = (float *)lab_shared(lab, bytes), *d_out = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, d_in);
    lab_use(&c, d_out);
    lab_int(&c, n_max);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = d_out, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_poison(d_out, bytes);
        lab_sample_draw(lab, &sample);
        lab_fill_any_floats(d_in, n_max, s, IN_STREAM);  /* every element of in, just before the call */
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = lab_any_float(s, IN_STREAM, mirrored((int)sample.index[k], n_max));
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, sample_got, sample_want, sample.count, 0, 0, "a copy: exact"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch2_shared_reverse: segments of 256 reversed through a shared tile", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
