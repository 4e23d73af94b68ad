/* ch2_debug_divergent's judge: lab_frame_sums, the sum of every frame of 256 samples (the last frame holds
 * what is left of n), by a grid-stride loop of 2 x sms blocks whose every pass loads one frame into shared
 * memory and adds it up as a tree, a __syncthreads() after each step. The sums are checked against the
 * CPU's, in double, at sizes whose last frame is short (n = 1, 255, 257, ...) or whole (256), and where the
 * last frame is its block's first (the small sizes) or a later one (131071 where the grid has fewer than
 * 512 blocks, below 256 SMs; 1000003 and 2^24 + 3 on any GPU); 1000003 twice on the same samples, since a
 * race can change a sum from run to run. Every call's samples are drawn afresh from lab_fresh: positive,
 * in [scale / 2, 3 scale / 2) for a scale drawn for the call (reduction.h's range), so that a value lost or
 * added twice moves a frame's sum past the tolerance.
 * The file as handed out loops while its own sample i < n. In the block that loads the short last frame,
 * the threads past n leave the loop a pass before the others: the others' barriers of that pass are
 * reached by part of the block only (compute-sanitizer's synccheck, labs/grade's step 2, reports them; the
 * PTX ISA releases a barrier that only exited threads hold up, so the others go on), and nothing writes
 * the leavers' places of s, so the tree adds what the block's earlier frame left there: where the block
 * had one, the last sum is too large, on every run. Not timed (lab_untimed): the lesson is the barrier,
 * and the results are the whole grade. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define FRAME 256  /* samples in a frame, and threads in the statement's block */
enum { X_STREAM = 1, SCALE_STREAM };  /* a call's seed's streams: the samples, and their range's scale */
enum { SPAN = 30 };  /* a scale is 1 to 2 times 2^-SPAN .. 2^SPAN: every value and sum a normal float */

/* The sizes: short last frames of 1, 255, 1, 232, 3, 255, 67 and 3 samples; 256 whole. */
static const long long sizes[] = {1, 255, 256, 257, 1000, 4099, 131071, 1000003, (1LL << 24) + 3};

/* A call's range of x, [scale / 2, 3 scale / 2), as reduction.h's: positive, so that a sum's rounding stays
 * bounded relative to the sum and a sum too large means values added that are not the frame's; each
 * value at least a third of the largest, so that one value lost or added twice moves a short frame's sum
 * past the tolerance; the scale over 61 binades, so that no sum can be guessed from n. */
static void x_range(unsigned long long s, float *low, float *high)
{
    int binade = (int)lab_below(s, SCALE_STREAM, 0, 2 * SPAN + 1) - SPAN;
    float scale = ldexpf(1.0f + lab_uniform(s, SCALE_STREAM, 1), binade);
    *low = 0.5f * scale, *high = 1.5f * scale;
}

/* One call of lab_frame_sums(x, n, sums, sms): sums, one float a frame, is poisoned and read back. */
static int sums_call(struct lab *lab, const float *x, long long n, float *got)
{
    struct lab_call c;
    lab_call_start(&c);
    lab_in(&c, x, n * sizeof(float));
    lab_int(&c, n);
    lab_out(&c, NULL, got, (n + FRAME - 1) / FRAME * sizeof(float));
    lab_int(&c, lab->dev.sms);
    return lab_run(lab, &c);
}

/* After wrong sums: the last frame's alone and too large (the hand-out's signature), or whole frames'. */
static void hint_frames(struct lab *lab, const float *got, const float *want, long long frames, double tolerance)
{
    long long wrong = 0;
    for (long long f = 0; f < frames - 1; f++)
        wrong += !(fabs((double)got[f] - want[f]) <= tolerance * want[f]);  /* NaN is wrong */
    if (wrong == 0 && got[frames - 1] > want[frames - 1])
        lab_hint(lab, "only the last frame's sum is wrong, and too large: the frame is short, and its sum took in "
                      "values an earlier frame left in shared memory. Which threads left the loop before that "
                      "pass, and whose barriers did they skip? synccheck (step 2 of make lab) names them: the "
                      "loop's count must be the block's, the same for all its threads");
    else if (wrong > 0)
        lab_hint(lab, "sums of whole frames are wrong: did a thread load the next frame into shared memory "
                      "before the others were done with this one? synccheck and racecheck (step 2 of make lab) "
                      "name the barrier or the two lines");
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch2_debug_divergent: a barrier some threads skip, found with synccheck", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lab is judged on its results alone, checked in step 1");
        return lab_end(&lab);
    }
    const long long n_max = sizes[COUNT_OF(sizes) - 1], frames_max = (n_max + FRAME - 1) / FRAME;
    float *x = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(frames_max * sizeof(float));
    float *got = (float *)host_alloc(frames_max * sizeof(float));
    float *again = (float *)host_alloc(frames_max * sizeof(float));
    /* The float additions a sample goes through, the tree's log2(256), each off by 2^-24 at most, relative,
     * for positive terms; and the reference's one rounding to a float. */
    int tree = 0;
    for (int t = FRAME; t > 1; t /= 2)
        tree++;
    const double tolerance = (tree + 1) * FLOAT_ROUNDING;
    char why[128];
    snprintf(why, sizeof why, "the tree's %d float additions and the reference's rounding, each 2^-24 at most", tree);
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);  /* --small: the small sizes, and one of the larger drawn for this grade */
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k], frames = (n + FRAME - 1) / FRAME;
        if (lab_skip(&lab, n))
            continue;
        unsigned long long s = lab_fresh(&lab);
        float low, high;
        x_range(s, &low, &high);
        for (long long i = 0; i < n; i++)
            x[i] = lab_value(s, X_STREAM, (unsigned long long)i, low, high);
        for (long long f = 0; f < frames; f++) {
            double sum = 0.0;
            for (long long i = f * FRAME; i < n && i < (f + 1) * FRAME; i++)
                sum += x[i];
            want[f] = (float)sum;
        }
        char what[96];
        snprintf(what, sizeof what, "n = %lld (%lld frames, the last of %lld samples)", n, frames,
                 n - (frames - 1) * FRAME);
        if (sums_call(&lab, x, n, got)) {
            if (!lab.cuda_error[0] && wall_seconds() >= lab.deadline) {
                /* A call that never returned: a block whose threads wait at a barrier that some never reach
                 * (labs/steps/correctness.sh reads judge-timeout-why). */
                printf("judge-timeout-why a barrier that some threads of the block never reach?\n");
                lab_hint(&lab, "the time ran out at %s: a kernel whose threads wait at a __syncthreads() that "
                               "others of their block never reach hangs. synccheck (step 2 of make lab) names it",
                         what);
            }
            break;
        }
        if (lab_check_floats(&lab, what, got, want, frames, 0, tolerance, why)) {
            hint_frames(&lab, got, want, frames, tolerance);
        } else if (k == COUNT_OF(sizes) - 2) {
            /* The same call again, on the same samples: a race can change a sum from run to run. */
            if (sums_call(&lab, x, n, again))
                break;
            if (!lab_same_twice(&lab, got, again, frames * sizeof(float)))
                lab.failures++;
        }
    }
    free(x), free(want), free(got), free(again);
    return lab_end(&lab);
}
