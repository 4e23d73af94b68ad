/* ch4_block_scan's judge: the student's segmented scan against the CPU's, exactly, at sizes around a
 * warp and a block and with a short last segment, then timed against the copy bandwidth. The values,
 * 1 to 7, come from the seed. The output is as large as the input, and is poisoned before each timed
 * run: a sample of it, drawn afresh after each run, shows a run that did not write it. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define THREADS 1024  /* the statement's: one segment a block */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_block_scan: an inclusive scan per block of 1024", &reps);
    const long long sizes[] = {1, 31, 32, 33, 1023, 1024, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned *values = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *want = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *got = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    for (long long i = 0; i < n_max; i++)
        values[i] = 1 + (unsigned)(lab_bits(lab.seed, 1, i) % 7);  /* 1..7: every step of the scan shows */
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        for (long long i = 0; i < n; i++)
            want[i] = values[i] + (i % THREADS ? want[i - 1] : 0);
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
                    lab_hint(&lab, "element %lld carries the sum of the segment before it: each block scans its own "
                             "1024 elements, from zero", i);
                    break;
                } else if (got[i] != want[i] && got[i] == values[i]) {
                    lab_hint(&lab, "element %lld is its input unchanged: did the steps add anything?", i);
                    break;
                }
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: out poisoned before each, a sample of it checked after. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    size_t bytes = n_max * sizeof(unsigned);
    for (long long i = 0; i < n_max; i++)
        want[i] = values[i] + (i % THREADS ? want[i - 1] : 0);
    unsigned *in = (unsigned *)lab_shared(&lab, bytes), *out = (unsigned *)lab_shared(&lab, bytes);
    CUDA_CHECK(cudaMemcpy(in, values, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, n_max);
    static struct lab_sample s;
    s.output = out, s.size = 4, s.n = n_max;
    static unsigned expected[LAB_SAMPLES];
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        lab_poison(out, bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_uint(&s, k);
            expected[k] = want[s.index[k]];
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
    free(values), free(want), free(got);
    return lab_end(&lab);
}
