/* ch4_histogram's judge: the student's 256-bin histogram of an English-like text with bytes of every value
 * in it (random.h's lab_text_byte), compared bin by bin with the CPU's, twice where no sanitizer runs to catch a race;
 * then timed against CUB's HistogramEven. Every call counts a text of its own, drawn from lab_fresh.
 * 256 counts are a small output: a file could count once and write the same counts back in every later
 * run, or keep them in the text's buffer. So before each timed run the judge draws a whole new text on
 * the GPU, counts it there with a kernel of its own (the run's reference) and zeroes the bins (the
 * statement: lab_histogram zeroes them "before your kernel runs"), then checks every bin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "libraries.h"

#define BINS 256  /* the statement's */

enum { TEXT_STREAM = 1 };

/* ==== The text ==== */

/* The judge's text on the GPU, n bytes from `seed`, and where bins is given its counts: a timed run's
 * input and reference. Each block counts its bytes in shared memory and adds them to bins, BINS threads
 * a block; the text is made here, never read back from memory the runner can write. */
__global__ void text_and_counts(unsigned char *text, long long n, unsigned long long seed, unsigned *bins)
{
    __shared__ unsigned counts[BINS];
    counts[threadIdx.x] = 0;
    __syncthreads();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned char c = lab_text_byte(seed, TEXT_STREAM, i);
        text[i] = c;
        atomicAdd(&counts[c], 1u);
    }
    __syncthreads();
    if (bins && counts[threadIdx.x])
        atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}

/* A text of n bytes from `seed` into dev_text, and with want its counts (dev_bins: the judge's 256). */
static void draw_text(unsigned char *dev_text, long long n, unsigned long long seed, unsigned *dev_bins,
                      unsigned *want)
{
    long long blocks = ceil_div(n, BINS);
    if (want)
        CUDA_CHECK(cudaMemset(dev_bins, 0, BINS * sizeof(unsigned)));
    text_and_counts<<<(int)(blocks < 4096 ? blocks : 4096), BINS>>>(dev_text, n, seed, want ? dev_bins : NULL);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (want)
        CUDA_CHECK(cudaMemcpy(want, dev_bins, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
}

/* ==== Calls and the CPU's counts ==== */

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

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_histogram: 256 bins, atomics in shared memory", &reps);
    const long long sizes[] = {1, 31, 33, 1025, 1000003, (1LL << 27) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned want[BINS], got[BINS];
    /* Each call's text is made on the GPU (the CPU would take over a second at 2^27 bytes) and read back: the
     * call sends it, and the CPU counts it. */
    unsigned char *text = NULL, *dev_made = NULL;
    if (!lab.time) {
        text = (unsigned char *)host_alloc(n_max);
        dev_made = (unsigned char *)lab_device_alloc(n_max);
    }
    lab_big_sizes(&lab, 2);  /* 1000003 and 2^27 + 1 */
    int stopped = 0;  /* the runner failed (it said why): no further calls */
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time && !stopped; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        /* Twice where no sanitizer runs, a text of its own each time: a race need not lose counts in every
         * run. The second says nothing when it passes. */
        for (int run = 0; run < (lab.small ? 1 : 2); run++) {
            unsigned long long s = lab_fresh(&lab);
            draw_text(dev_made, n, s, NULL, NULL);
            CUDA_CHECK(cudaMemcpy(text, dev_made, n, cudaMemcpyDeviceToHost));
            count(text, n, want);
            if ((stopped = histogram_call(&lab, text, n, got)))
                break;
            char what[48];
            snprintf(what, sizeof what, run ? "n = %lld, bins, run 2" : "n = %lld, bins", n);
            lab.quiet = run > 0;
            int failed = lab_check_uints(&lab, what, got, want, BINS, 0);
            lab.quiet = 0;
            if (!failed)
                continue;
            unsigned long long counted = 0;
            for (int b = 0; b < BINS; b++)
                counted += got[b];
            if (counted < (unsigned long long)n)
                lab_hint(&lab, "%llu of %lld bytes were counted: lost updates (a ++ that should be atomicAdd, or "
                         "a merge that writes instead of adds)", counted, n);
            else if (counted > (unsigned long long)n)
                lab_hint(&lab, "%llu counts for %lld bytes: some counters were not zeroed, or a byte was counted "
                         "twice", counted, n);
            break;
        }
    }
    if (dev_made)
        CUDA_CHECK(cudaFree(dev_made));
    free(text);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The limit: CUB on a text of the same kind, in a buffer the judge owns (memory shared with another
     * process can be slower to the process that opened it). */
    unsigned char *own = (unsigned char *)lab_device_alloc(n_max);
    draw_text(own, n_max, lab_fresh(&lab), NULL, NULL);
    struct stats cub = cub_histogram_time(own, n_max, BINS, reps);
    CUDA_CHECK(cudaFree(own));
    print_bandwidth("cub", "cub HistogramEven", cub, (double)n_max, 0, "");

    /* The timed runs: a whole new text before each, counted by the judge's kernel; every bin checked. */
    unsigned *dev_want = (unsigned *)lab_device_alloc(BINS * sizeof(unsigned));
    unsigned char *dev_text = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *bins = (unsigned *)lab_shared(&lab, BINS * sizeof(unsigned));
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
        draw_text(dev_text, n_max, lab_fresh(&lab), dev_want, want);  /* all of it: nothing kept in it survives */
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
        printf("  every timed run's %d bins were right, on a text of %lld bytes drawn afresh before each run\n", BINS,
               n_max);
        lab_report(&lab, lab_clock_stats(&lab, &clock), (double)n_max, "GB/s", n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    return lab_end(&lab);
}
