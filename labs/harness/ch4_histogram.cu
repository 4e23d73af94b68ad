/* ch4_histogram's harness: the student's 256-bin histogram of an English-like text (common/text.h)
 * compared bin by bin with the CPU's, twice at a large size to catch a race, then timed against CUB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/text.h"
#include "lab.h"
#include "libraries.h"
#include LAB_FILE

struct problem { unsigned char *data; unsigned *bins; long long n; int sms; };

static void problem_start(struct problem *p, const unsigned char *text, long long n, int sms)
{
    p->n = n, p->sms = sms;
    p->data = (unsigned char *)lab_device_alloc(n);
    p->bins = (unsigned *)lab_device_alloc(BINS * sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(p->data, text, n, cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_histogram(p->data, p->n, p->bins, p->sms);
}

static void bins_on_gpu(struct problem *p, unsigned *got)
{
    run(p);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(got, p->bins, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->data));
    CUDA_CHECK(cudaFree(p->bins));
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_histogram: 256 bins, atomics in shared memory", &reps);
    const long long sizes[] = {1, 31, 33, 1025, 1000003, (1LL << 27) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned char *text = (unsigned char *)host_alloc(n_max);
    english_like_text(text, n_max, 4);
    for (long long i = 0; i < n_max; i += 4099)
        text[i] = (unsigned char)(128 + i % 128);  /* a few bytes of every value past ASCII too */
    unsigned want[BINS], got[BINS], again[BINS];
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        memset(want, 0, sizeof want);
        for (long long i = 0; i < n; i++)
            want[text[i]]++;
        problem_start(&p, text, n, lab.dev.sms);
        bins_on_gpu(&p, got);
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
            bins_on_gpu(&p, again);
            if (!lab_same_twice(&lab, got, again, sizeof got))
                lab.failures++;
        }
        problem_end(&p);
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    problem_start(&p, text, n_max, lab.dev.sms);
    struct stats cub = cub_histogram_time(p.data, n_max, BINS, reps);
    print_bandwidth("cub HistogramEven", cub, (double)n_max, 0, "");
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, (double)n_max, "GB/s", n_max / (cub.median * 1e-3) / 1e9, "of CUB's speed", 30);
    problem_end(&p);
    free(text);
    return lab_end(&lab);
}
