/* ch4_block_scan's judge: the student's segmented scan against the CPU's, exactly, at sizes around a
 * warp and a block and with a short last segment, then timed against the copy bandwidth. The values are
 * unsigned integers of all 32 bits, as the statement promises, drawn afresh for every call (lab_fresh):
 * the sums wrap modulo 2^32 as unsigned arithmetic does, and no file can pack several segments into one
 * value's bits. Before each timed run the judge fills the whole input with new values on the GPU and
 * poisons the output; a sample of it, drawn afresh after each run, is checked against sums the judge
 * makes again on the CPU from the run's seed: a run that did not write it, or wrote the last run's
 * answer, fails. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define THREADS 1024  /* the statement's: one segment a block */

enum { VALUE_STREAM = 1 };  /* value i of a call is (unsigned)lab_bits(its seed, VALUE_STREAM, i): lab_fill_uints' */

/* Element i of the scan of a call's values: its segment's values up to i, each made again from the
 * call's seed, added modulo 2^32 as the student's unsigned additions are. A timed run's reference, for
 * the sampled elements only (the output is 256 MB). */
static unsigned scanned(unsigned long long seed, long long i)
{
    unsigned sum = 0;
    for (long long j = i - i % THREADS; j <= i; j++)
        sum += (unsigned)lab_bits(seed, VALUE_STREAM, (unsigned long long)j);
    return sum;
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_block_scan: an inclusive scan per block of 1024", &reps);
    const long long sizes[] = {1, 31, 32, 33, 1023, 1024, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = n_max * sizeof(unsigned);
    lab_big_sizes(&lab, 2);  /* 1000003 and 2^26 + 1 */
    if (!lab.time) {
        /* Each call's values are drawn on the GPU (fill.cu, quicker than the CPU at 2^26) and read back:
         * the call sends them, and the CPU scans them. */
        unsigned *values = (unsigned *)host_alloc(bytes);
        unsigned *want = (unsigned *)host_alloc(bytes);
        unsigned *got = (unsigned *)host_alloc(bytes);
        unsigned *dev_values = (unsigned *)lab_device_alloc(bytes);
        for (int k = 0; k < COUNT_OF(sizes); k++) {
            long long n = sizes[k];
            if (lab_skip(&lab, n))
                continue;
            lab_fill_uints(dev_values, n, lab_fresh(&lab), VALUE_STREAM, 0);
            CUDA_CHECK(cudaMemcpy(values, dev_values, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
            for (long long i = 0; i < n; i++)
                want[i] = values[i] + (i % THREADS ? want[i - 1] : 0);  /* modulo 2^32, as the kernel's */
            struct lab_call c;
            lab_call_start(&c);
            lab_in(&c, values, n * sizeof(unsigned));
            lab_out(&c, NULL, got, n * sizeof(unsigned));
            lab_int(&c, n);
            if (lab_run(&lab, &c))
                break;
            char what[32];
            snprintf(what, sizeof what, "n = %lld", n);
            if (lab_check_uints(&lab, what, got, want, n, 0))
                for (long long i = 1; i < n; i++)
                    if (got[i] != want[i] && i % THREADS == 0 && got[i] == want[i - 1] + values[i]) {
                        lab_hint(&lab, "element %lld carries the sum of the segment before it: each block scans "
                                 "its own 1024 elements, from zero", i);
                        break;
                    } else if (got[i] != want[i] && got[i] == values[i]) {
                        lab_hint(&lab, "element %lld is its input unchanged: did the steps add anything?", i);
                        break;
                    }
        }
        CUDA_CHECK(cudaFree(dev_values));
        free(values), free(want), free(got);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: the input drawn afresh and out poisoned before each, a sample of out checked after. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    unsigned *in = (unsigned *)lab_shared(&lab, bytes), *out = (unsigned *)lab_shared(&lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, n_max);
    static struct lab_sample s;
    s.output = out, s.size = 4, s.n = n_max;
    static unsigned got[LAB_SAMPLES], expected[LAB_SAMPLES];
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long seed = lab_fresh(&lab);
        lab_fill_uints(in, n_max, seed, VALUE_STREAM, 0);  /* all of it: nothing kept in it survives */
        lab_poison(out, bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_uint(&s, k);
            expected[k] = scanned(seed, s.index[k]);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_uints(&lab, what, &s, got, expected, 0))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    return lab_end(&lab);
}
