/* ch4_debug_init's judge: the student's share of each bin among n keys (the keys equal to b, over n),
 * compared with the CPU's at eleven pairs of n and bins, from 1 key in 1 bin to 1000003 keys in 4096
 * bins, the keys uniform below bins and drawn afresh for every call (lab_fresh). Each pair is called
 * twice: the file counts in memory of its own, from cudaMalloc, and the second call's cudaMalloc may well
 * hand back what the first freed, its counts still in it, so that counts nothing set to zero show as
 * shares too large (or anything) in some calls. Whether memory is reused is the driver's choice, though:
 * the result check may pass a file that never zeroes its counts. compute-sanitizer's initcheck, which
 * labs/grade runs for this lab (rules.txt "sanitize"), reports the reads of memory never written, whatever
 * its value, and is what the statement relies on. The small sizes have bins no key falls in, whose counts
 * only to_shares reads: initcheck sees those reads however it treats an atomic's.
 * Not timed (lab_untimed): the lesson is memory written before it is read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { KEY_STREAM = 1, RUNS = 2 };
/* The counts are exact and each share one division, correctly rounded on the CPU and on the GPU alike
 * (nvcc's default -prec-div=true): the same float. The tolerance allows a unit or two of float's last
 * place all the same, and is still far below what one count more or less changes (1 / n relative,
 * 1e-6 at n = 1000003). */
#define TOLERANCE 2.5e-7
#define WHY "integer counts, one correctly rounded division each; a count off by one is 1e-6 or more"

struct pair {
    long long n;
    int bins;
};

/* Key i of a call: uniform in [0, bins). */
static void make_keys(unsigned *keys, long long n, int bins, unsigned long long seed)
{
    for (long long i = 0; i < n; i++)
        keys[i] = lab_below(seed, KEY_STREAM, (unsigned long long)i, (unsigned)bins);
}

/* The CPU's counts and shares. */
static void reference(const unsigned *keys, long long n, int bins, unsigned *counts, float *want)
{
    memset(counts, 0, (size_t)bins * sizeof *counts);
    for (long long i = 0; i < n; i++)
        counts[keys[i]]++;
    for (int b = 0; b < bins; b++)
        want[b] = (float)counts[b] / (float)n;
}

/* A wrong call's signature: shares of bins that have keys come out 0 (counts zeroed after they were
 * counted), or shares off (counts that did not start at 0). Elements never written (NaN) are lab.c's. */
static void hint(struct lab *lab, const float *got, const float *want, const unsigned *counts, int bins)
{
    int zeroed = 0, off = 0;
    for (int b = 0; b < bins; b++) {
        if (isnan(got[b]) || fabs((double)got[b] - want[b]) <= TOLERANCE * fabs((double)want[b]))
            continue;
        if (got[b] == 0.0f && counts[b] > 0)
            zeroed++;
        else
            off++;
    }
    if (off)
        lab_hint(lab, "%d of %d bins have a share their keys do not make: their counts did not start at 0. "
                      "cudaMalloc's memory holds whatever was there (the last call's counts, freed and handed "
                      "back); initcheck (step 2 of make lab) names the reads of memory nothing wrote", off, bins);
    else if (zeroed)
        lab_hint(lab, "%d bins that have keys came out 0: were the counts zeroed after the keys were counted?",
                 zeroed);
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_debug_init: counts that nothing set to zero, found with initcheck", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lesson is memory written before it is read; the fix costs one call");
        return lab_end(&lab);
    }
    /* Bins no key falls in at the small sizes (1 key in 4096 bins); every bin full at the largest. */
    const struct pair pairs[] = {{1, 1},         {1, 4096},      {31, 7},        {32, 32},
                                 {33, 1000},     {1025, 256},    {1025, 4096},   {100003, 3},
                                 {100003, 1024}, {1000003, 1},   {1000003, 4096}};
    const long long n_max = 1000003;
    const int bins_max = 4096;
    unsigned *keys = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *counts = (unsigned *)host_alloc(bins_max * sizeof(unsigned));
    float *want = (float *)host_alloc(bins_max * sizeof(float));
    float *got = (float *)host_alloc(bins_max * sizeof(float));
    lab_big_sizes(&lab, 2);  /* the two pairs of 1000003 keys */
    int stopped = 0;  /* the runner failed (it said why): no further calls */
    for (int k = 0; k < COUNT_OF(pairs) && !stopped; k++) {
        long long n = pairs[k].n;
        int bins = pairs[k].bins;
        if (lab_skip(&lab, n))
            continue;
        /* Twice, each call on keys of its own: the second's cudaMalloc may hand back what the first freed. */
        for (int run = 0; run < RUNS; run++) {
            make_keys(keys, n, bins, lab_fresh(&lab));
            reference(keys, n, bins, counts, want);
            struct lab_call c;
            lab_call_start(&c);
            lab_in(&c, keys, n * sizeof(unsigned));
            lab_int(&c, n);
            lab_int(&c, bins);
            lab_out(&c, NULL, got, bins * sizeof(float));  /* poisoned: NaN */
            lab_int(&c, lab.dev.sms);
            if ((stopped = lab_run(&lab, &c)))
                break;
            char what[64];
            snprintf(what, sizeof what, "n = %lld, %d bins, call %d of %d", n, bins, run + 1, RUNS);
            if (lab_check_floats(&lab, what, got, want, bins, 0, TOLERANCE, WHY))
                hint(&lab, got, want, counts, bins);
        }
    }
    free(keys);
    free(counts);
    free(want);
    free(got);
    return lab_end(&lab);
}
