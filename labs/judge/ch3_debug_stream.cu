/* ch3_debug_stream's judge: lab_normalize_squares, host code that queues a copy in, a kernel and a copy back
 * into pinned memory on a stream, then reads what came back on the host (the squares of host_in, added up
 * and each divided by their sum: host_out). It is called at sizes from 1 element to 2^26 + 3, the largest
 * in three calls, each call's input new, from a seed of its own (lab_fresh). After each call, and after
 * the runner's own wait for the GPU, three buffers are checked, in this order: dev_squares and host_squares
 * must hold the squares exactly (the kernel ran, the copy back landed where it should), and host_out the
 * weights, which the host computed during the call from host_squares. A host that read host_squares before
 * the copy back had landed read the runner's poison (NaN) or squares only partly there: host_out is wrong
 * although host_squares is right, the race's signature, which the hint names.
 * Why these sizes: at the small ones the copies may land before the host reads, or not, by chance; at
 * 2^26 + 3 floats (256 MiB) the copy in alone takes milliseconds over the host link while the host starts
 * reading at once, so the file as handed out fails there every time, and three calls there leave a wait
 * put in the wrong place little luck.
 * Not timed (lab_untimed): the lesson is where the wait goes, and the results are the whole grade. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { IN_STREAM = 1 };  /* a call's seed's stream for host_in */
#define IN_LOW 0.5f      /* host_in's values: positive and away from 0, so that no sum is 0 */
#define IN_HIGH 1.5f
/* host_out's tolerance: the weight rounded to a float once, from a sum in double; the sum in any order
 * (2^26 positive terms at most) is off by at most 2^26 x 2^-53 = 2^-27, relative, below a float's
 * rounding. Two roundings of a float cover both. The squares are one multiply each: exact. */
#define OUT_TOLERANCE (2 * FLOAT_ROUNDING)
#define BIG ((1LL << 26) + 3)

/* The calls' sizes, in order; the last, BIG, is called BIG_CALLS times, each call with a new input. */
static const long long sizes[] = {1, 33, 1025, 65537, 1000003, (1LL << 24) + 1, BIG};
enum { BIG_CALLS = 3 };

/* One buffer read back after the call (got) against what it must hold (want, every element positive):
 * 1 if some element is off by more than tolerance, relative (NaN is), said with the first of them. */
static int wrong_buffer(struct lab *lab, const char *what, const char *name, const float *got, const float *want,
                        long long n, double tolerance)
{
    long long wrong = 0, first = -1, nans = 0;
    for (long long i = 0; i < n; i++)
        if (!(fabs((double)got[i] - want[i]) <= tolerance * want[i])) {  /* NaN is wrong */
            first = first < 0 ? i : first;
            wrong++;
            nans += isnan(got[i]) != 0;
        }
    if (!wrong)
        return 0;
    printf("  %s: FAIL, %s: %lld of %lld elements wrong%s; first: element %lld, expected %.9g, got %.9g\n"
           "    (tolerance %.1e relative)\n", what, name, wrong, n, nans == wrong ? ", every one NaN" : "", first,
           want[first], got[first], tolerance);
    lab->failures++;
    return 1;
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_debug_stream: the host reads a result before its stream is done", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lab is judged on its results alone, checked in step 1");
        return lab_end(&lab);
    }
    const int last = COUNT_OF(sizes) - 1;  /* calls k = last .. last + BIG_CALLS - 1 are BIG's */
    int big = BIG_CALLS;
    for (int k = 0; k < last; k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);  /* --small: the small sizes, and one of the larger calls drawn for this grade */
    size_t most = BIG * sizeof(float);
    float *in = (float *)host_alloc(most), *squares = (float *)host_alloc(most), *weights = (float *)host_alloc(most);
    float *got_dev = (float *)host_alloc(most), *got_host = (float *)host_alloc(most);
    float *got_out = (float *)host_alloc(most);
    for (int k = 0; k < last + BIG_CALLS; k++) {
        long long n = sizes[k < last ? k : last];
        if (lab_skip(&lab, n))
            continue;
        /* The call's input, and the reference: the squares in float (one multiply, as the kernel's), their
         * sum in double in index order, each weight rounded to a float once. */
        unsigned long long seed = lab_fresh(&lab);
        double sum = 0.0;
        for (long long i = 0; i < n; i++) {
            in[i] = lab_value(seed, IN_STREAM, i, IN_LOW, IN_HIGH);
            squares[i] = in[i] * in[i];
            sum += squares[i];
        }
        for (long long i = 0; i < n; i++)
            weights[i] = (float)(squares[i] / sum);
        /* lab_normalize_squares(host_in, host_squares, host_out, n, dev_in, dev_squares): every buffer but
         * host_in arrives poisoned; all but dev_in come back once the runner has waited for the GPU. */
        struct lab_call c;
        lab_call_start(&c);
        lab_host_in(&c, in, n * sizeof(float));
        lab_host_out(&c, got_host, n * sizeof(float));
        lab_host_out(&c, got_out, n * sizeof(float));
        lab_int(&c, n);
        lab_scratch(&c, n * sizeof(float));
        lab_out(&c, NULL, got_dev, n * sizeof(float));
        if (lab_run(&lab, &c))
            break;
        char what[64];
        if (k >= last)
            snprintf(what, sizeof what, "n = %lld, call %d of %d", n, k - last + 1, BIG_CALLS);
        else
            snprintf(what, sizeof what, "n = %lld", n);
        if (wrong_buffer(&lab, what, "dev_squares", got_dev, squares, n, 0.0)) {
            lab_hint(&lab, "dev_squares does not hold the squares of host_in: the copy in and the kernel are fixed, "
                           "queued on stream as the hand-out queues them");
            break;
        }
        if (wrong_buffer(&lab, what, "host_squares", got_host, squares, n, 0.0)) {
            lab_hint(&lab, "host_squares does not hold the squares, even once the runner has waited for the GPU: "
                           "the copy back is fixed, dev_squares to host_squares on stream, as in the hand-out");
            break;
        }
        if (wrong_buffer(&lab, what, "host_out", got_out, weights, n, OUT_TOLERANCE)) {
            lab_hint(&lab, "host_squares holds the right squares now, after the runner waited for the GPU, but "
                           "host_out was computed from what it held earlier: your host code read host_squares "
                           "before the copy back had landed there (cudaMemcpyAsync only queues the copy; NaN is "
                           "the poison host_squares was filled with). Wait for stream once the copy back is "
                           "queued, before the first read: cudaStreamSynchronize(stream)");
            break;
        }
        printf("  %s: PASS (dev_squares and host_squares exact, host_out within %.1e, relative)\n", what,
               OUT_TOLERANCE);
    }
    free(in), free(squares), free(weights), free(got_dev), free(got_host), free(got_out);
    return lab_end(&lab);
}
