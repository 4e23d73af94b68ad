/* ch3_pipeline's judge: the student's pipeline from pinned memory to pinned memory, checked at sizes
 * below, at and past a chunk, then timed against the transfer bound. The pipeline's whole round trip is
 * what counts, and the judge's clock times exactly that: from its request to the runner's answer that
 * every copy and kernel has finished. Each timed run starts from poison in both device buffers and in
 * the host output, so that nothing a run left behind can be copied back in place of the next run's work,
 * and the host input is written again from the judge's own copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

#define CHUNK (1 << 22)  /* the statement's: elements a chunk */

/* out = scale_shift(in): the statement's kernel, on the CPU, in the same float arithmetic. */
static float scale_shift(float x)
{
    return 2.0f * x + 1.0f;
}

int main(int argc, char **argv)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_pipeline: copy in, compute and copy out, overlapped on streams", &reps);
    /* Far below a chunk: one element, around a warp and a block, a prime; one chunk and one past it; a
     * short last chunk; then the timed size, 32 chunks and one element: 8 rounds of the 4 streams, and
     * a last chunk of 1. */
    const long long sizes[] = {1, 33, 1025, 1000003, CHUNK, CHUNK + 1, 5LL * CHUNK + 12345, 32LL * CHUNK + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = n_max * sizeof(float);
    float *in = (float *)host_alloc(bytes), *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    for (long long i = 0; i < n_max; i++) {
        in[i] = lab_uniform(lab.seed, 1, i);
        want[i] = scale_shift(in[i]);
    }
    /* One multiply and one add, each rounded once (or one fused multiply-add): 2 roundings. */
    const char *rounded = "a multiply and an add, each rounded";
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        /* host_in and host_out pinned; dev_in and dev_out poisoned on the GPU. */
        struct lab_call c;
        lab_call_start(&c);
        lab_host_in(&c, in, n * sizeof(float));
        lab_host_out(&c, got, n * sizeof(float));
        lab_int(&c, n);
        lab_scratch(&c, n * sizeof(float));
        lab_scratch(&c, n * sizeof(float));
        if (lab_run(&lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %lld", n);
        lab_check_floats(&lab, what, got, want, n, 0, 2 * FLOAT_ROUNDING, rounded);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The transfer bound: in and out cross the host link once each; with a copy engine each way they can
     * overlap, so the larger of the two times is the least the round trip can take. */
    double h2d = measure_transfer_bandwidth(bytes, 1, 1), d2h = measure_transfer_bandwidth(bytes, 0, 1);
    double bound_gbs = bytes / (bytes / h2d > bytes / d2h ? bytes / h2d : bytes / d2h);
    printf("  host link: %.1f GB/s in, %.1f GB/s out (pinned, measured now)\n", h2d, d2h);

    /* The timed runs' buffers: host memory the runner pins, device memory the runner allocated. */
    float *host_in = (float *)lab_shared_host(&lab, bytes), *host_out = (float *)lab_shared_host(&lab, bytes);
    float *dev_in = (float *)lab_shared(&lab, bytes), *dev_out = (float *)lab_shared(&lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, host_in);
    lab_use(&c, host_out);
    lab_int(&c, n_max);
    lab_use(&c, dev_in);
    lab_use(&c, dev_out);
    static struct lab_sample s;
    static float sample_want[LAB_SAMPLES];
    s.output = host_out, s.size = 4, s.n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        /* host_in is the student's to read only, but a run that wrote it could leave its answers there
         * for the next: it is written again each run, as the poison is. */
        memcpy(host_in, in, bytes);
        memset(host_out, LAB_POISON_BYTE, bytes);
        lab_poison(dev_in, bytes);
        lab_poison(dev_out, bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_float(&s, k);
            sample_want[k] = want[s.index[k]];
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, got, sample_want, 0, 2 * FLOAT_ROUNDING, rounded))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), (double)bytes, "GB/s", bound_gbs,
                   "of the transfer bound (per direction)");
    }
    free(in), free(want), free(got);
    return lab_end(&lab);
}
