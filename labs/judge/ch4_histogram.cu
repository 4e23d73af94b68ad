/* ch4_histogram's judge: the student's 256-bin histogram of an English-like text (common/text.h, from a
 * seed drawn from the judge's) with a few bytes of every value past ASCII, compared bin by bin with the
 * CPU's, twice at the large sizes to catch a race; then timed against CUB's HistogramEven.
 * 256 counts are a small output: a file could count once and write the same counts back in every later
 * run. So before each timed run the judge zeroes the bins (the statement: "bins is zeroed before your
 * kernel runs") and changes 64 bytes of the text, at places and to values drawn from the seed and the
 * run's number, then checks every bin against the counts changed with them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/text.h"
#include "lab.h"
#include "libraries.h"

#define BINS 256  /* the statement's */

enum { CHANGES = 64 };  /* bytes of the text changed before each timed run */

/* One call of lab_histogram(data, n, bins, sms): the text's first n bytes in, the bins back in got
 * (they arrive poisoned: the launch function zeroes them). */
static int histogram_call(struct lab *lab, const unsigned char *text, long long n, unsigned *got)
{
    struct lab_call c;
    lab_call_start(&c);
    lab_in(&c, text, n);
    lab_int(&c, n);
    lab_out(&c, NULL, got, BINS * sizeof(unsigned));
    lab_int(&c, lab->dev.sms);
    return lab_run(lab, &c);
}

static void count(const unsigned char *text, long long n, unsigned *want)
{
    memset(want, 0, BINS * sizeof *want);
    for (long long i = 0; i < n; i++)
        want[text[i]]++;
}

/* Before timed run `run` (-1: the warm-up): CHANGES bytes of the text get new values, in the judge's copy
 * and on the GPU, and the counts follow them (in order: a place drawn twice keeps its last value). */
static void change_bytes(const struct lab *lab, int run, unsigned char *text, unsigned char *dev_text, long long n,
                         unsigned *want)
{
    for (int k = 0; k < CHANGES; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGES + k;
        long long i = (long long)(lab_bits(lab->seed, 3, draw) % (unsigned long long)n);
        unsigned char value = (unsigned char)lab_bits(lab->seed, 4, draw);
        want[text[i]]--;
        text[i] = value;
        want[value]++;
        CUDA_CHECK(cudaMemcpy(dev_text + i, &value, 1, cudaMemcpyHostToDevice));
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_histogram: 256 bins, atomics in shared memory", &reps);
    const long long sizes[] = {1, 31, 33, 1025, 1000003, (1LL << 27) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned char *text = (unsigned char *)host_alloc(n_max);
    english_like_text(text, n_max, lab_bits(lab.seed, 1, 0));
    for (long long i = 0; i < n_max; i += 4099)
        text[i] = (unsigned char)(128 + i % 128);  /* a few bytes of every value past ASCII too */
    unsigned want[BINS], got[BINS], again[BINS];
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        count(text, n, want);
        if (histogram_call(&lab, text, n, got))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %lld, bins", n);
        if (lab_check_uints(&lab, what, got, want, BINS, 0)) {
            unsigned long long counted = 0;
            for (int b = 0; b < BINS; b++)
                counted += got[b];
            if (counted < (unsigned long long)n)
                lab_hint(&lab, "%llu of %lld bytes were counted: lost updates (a ++ that should be atomicAdd, or "
                         "a merge that writes instead of adds)", counted, n);
            else if (counted > (unsigned long long)n)
                lab_hint(&lab, "%llu counts for %lld bytes: some counters were not zeroed, or a byte was counted "
                         "twice", counted, n);
        } else if (!lab.small) {
            if (histogram_call(&lab, text, n, again))
                break;
            if (!lab_same_twice(&lab, got, again, sizeof got))
                lab.failures++;
        }
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The limit: CUB on the same text, in a copy the judge owns (memory shared with another process can
     * be slower to the process that opened it). */
    unsigned char *own = (unsigned char *)lab_device_alloc(n_max);
    CUDA_CHECK(cudaMemcpy(own, text, n_max, cudaMemcpyHostToDevice));
    struct stats cub = cub_histogram_time(own, n_max, BINS, reps);
    CUDA_CHECK(cudaFree(own));
    print_bandwidth("cub", "cub HistogramEven", cub, (double)n_max, 0, "");

    /* The timed runs: every bin checked after each, the text a little different each time. */
    unsigned char *dev_text = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *bins = (unsigned *)lab_shared(&lab, BINS * sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(dev_text, text, n_max, cudaMemcpyHostToDevice));
    count(text, n_max, want);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_text);
    lab_int(&c, n_max);
    lab_use(&c, bins);
    lab_int(&c, lab.dev.sms);
    static struct lab_sample s;
    s.output = bins, s.size = 4, s.n = BINS;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        change_bytes(&lab, clock.run, text, dev_text, n_max, want);
        CUDA_CHECK(cudaMemset(bins, 0, BINS * sizeof(unsigned)));
        lab_sample_draw(&lab, &s);  /* all 256 bins */
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int b = 0; b < BINS; b++)
            got[b] = lab_sample_uint(&s, b);
        char what[48];
        snprintf(what, sizeof what, "timed run %d, bins", clock.run + 1);
        if (lab_check_uints(&lab, what, got, want, BINS, 0))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's %d bins were right, with %d bytes of the text changed before each run\n", BINS,
               CHANGES);
        lab_report(&lab, lab_clock_stats(&lab, &clock), (double)n_max, "GB/s", n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    free(text);
    return lab_end(&lab);
}
