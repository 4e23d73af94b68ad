/* ch1_two_inputs's judge: the student's add_arrays under the statement's launch, at sizes around a warp
 * and a block and at primes, each in blocks of a size the judge picks (256 first, then others), then
 * timed past 2^26 elements in blocks of 256 against the copy bandwidth. a and b are drawn afresh for
 * every call, timed runs included (random.h, from lab_fresh); c is poisoned before every call, so an
 * element no thread wrote shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* a's and b's range (streams 1 and 2): both signs, so that a sign lost or a subtraction shows. */
#define LOW -4.0f
#define HIGH 4.0f

/* {n, threads}: blocks of 256 first (the usual choice), then blocks of a warp around a warp, 1025 in
 * blocks of 1024 (one element in the second block), blocks of 96 (not a power of two), primes; the last
 * is timed. */
static const int sizes[][2] = {{1, 256}, {1000, 256}, {31, 32}, {32, 32}, {33, 32}, {1025, 1024}, {4099, 96},
                               {100003, 128}, {1000003, 512}, {(1 << 26) + 1, 256}};

/* Every thread wrote the first block's elements: those are right, and nothing past them was written. */
static int only_the_first_block_written(const float *got, const float *want, int n, int threads)
{
    if (n <= threads)
        return 0;
    for (int i = 0; i < n; i++)
        if (i < threads ? got[i] != want[i] : !isnan(got[i]))
            return 0;
    return 1;
}

/* Every size, each with a and b of its own, c checked whole. */
static void check_sizes(struct lab *lab)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1][0];
    size_t bytes = (size_t)n_max * sizeof(float);
    float *a = (float *)host_alloc(bytes), *b = (float *)host_alloc(bytes);
    float *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k][0] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    int passed_with_256 = 0, failed_with_256 = 0;  /* so far */
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        int n = sizes[k][0], threads = sizes[k][1];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (int i = 0; i < n; i++) {
            a[i] = lab_value(s, 1, i, LOW, HIGH);
            b[i] = lab_value(s, 2, i, LOW, HIGH);
            want[i] = a[i] + b[i];
        }
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, a, n * sizeof(float));
        lab_in(&c, b, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, n);
        lab_int(&c, threads);
        if (lab_run(lab, &c))
            break;
        char what[48];
        snprintf(what, sizeof what, "n = %d in blocks of %d", n, threads);
        /* One addition, which the GPU rounds exactly as the CPU does (add_array.cu checks the same). */
        if (!lab_check_floats(lab, what, got, want, n, 0, 0, "one addition, rounded as on the CPU")) {
            passed_with_256 |= threads == 256;
            continue;
        }
        failed_with_256 |= threads == 256;
        if (threads != 256 && passed_with_256 && !failed_with_256)
            lab_hint(lab, "the sizes in blocks of 256 passed and this one, in blocks of %d, did not: does the kernel "
                          "assume 256 threads a block? blockDim.x is the block's size", threads);
        else if (only_the_first_block_written(got, want, n, threads))
            lab_hint(lab, "elements 0 to %d are right and none after them was written: every block wrote the "
                          "first block's elements (the index needs the block's place, blockIdx.x * blockDim.x)",
                     threads - 1);
    }
    free(a), free(b), free(want), free(got);
}

/* The timed runs: before each, a and b are drawn afresh on the GPU (lab_fill_floats, the same values
 * random.h gives the CPU) and c is poisoned, so that nothing kept from a run before is worth anything;
 * after it, a fresh sample of c is checked against the sums of the same draws, made again here. */
static void time_runs(struct lab *lab, int reps)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1][0], timed_threads = sizes[COUNT_OF(sizes) - 1][1];
    size_t bytes = (size_t)n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *da = (float *)lab_shared(lab, bytes), *db = (float *)lab_shared(lab, bytes);
    float *dc = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, da);
    lab_use(&c, db);
    lab_use(&c, dc);
    lab_int(&c, n_max);
    lab_int(&c, timed_threads);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = dc, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_fill_floats(da, n_max, s, 1, LOW, HIGH);
        lab_fill_floats(db, n_max, s, 2, LOW, HIGH);
        lab_poison(dc, bytes);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            long long i = sample.index[k];
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = lab_value(s, 1, i, LOW, HIGH) + lab_value(s, 2, i, LOW, HIGH);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, sample_got, sample_want, sample.count, 0, 0,
                             "one addition, rounded as on the CPU"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 12.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_two_inputs: c = a + b, one thread per element, any block size", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
