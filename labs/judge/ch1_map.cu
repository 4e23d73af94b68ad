/* ch1_map's judge: the student's saxpy at sizes that break the usual mistakes, then, on a GPU with the
 * memory for it, past 2^31 elements, where an int index overflows; then timed against the copy
 * bandwidth. a, x and y are drawn afresh for every call, timed runs included (random.h, from lab_fresh);
 * x and y are made on the GPU for the size past 2^31 and for the timed runs (fill.cu), and checked there
 * past 2^31. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* The ranges: a in [0.25, 0.75) (stream 0), x and y in [1, 2) (streams 1 and 2). All positive, so that
 * a x + y never cancels and two roundings bound its error relative to the result; a x >= 0.25, so that
 * a x added twice stands out (the hint below). */
#define A_LOW 0.25f
#define A_HIGH 0.75f
#define LOW 1.0f
#define HIGH 2.0f
/* The statement's "one kernel" (lab_one_kernel): its hint. */
#define ONE_KERNEL "the launch in lab_saxpy is fixed: one saxpy over every element (its grid-stride loop), no " \
                   "second kernel"

/* 1 to 1025 sit around a warp and a block; 1000003 is a prime; the last, over 2^26, is timed and needs
 * more than one pass of the grid on every GPU. */
static const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};

/* ==== The size past 2^31, on the GPU ==== */

/* Counts the elements of y that are not a x + y0 (x and y0 made again from the call's seed), and finds
 * the first. */
__global__ void verify(float a, const float *y, long long n, unsigned long long seed, unsigned long long *wrong,
                       unsigned long long *first)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        float want = a * lab_value(seed, 1, i, LOW, HIGH) + lab_value(seed, 2, i, LOW, HIGH);
        if (!(fabsf(y[i] - want) <= 2 * FLOAT_ROUNDING * fabsf(want))) {
            atomicAdd(wrong, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

static int past_2_31(struct lab *lab)
{
    const long long n = (1LL << 31) + 3;
    size_t bytes = n * sizeof(float), free_bytes, total;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (2.0 * bytes + DEVICE_RESERVE > free_bytes) {
        printf("  n = %lld: skipped, it needs %.1f GB and %.1f GB are free on this GPU (an int index is not "
               "checked here)\n", n, 2.0 * bytes / 1e9, free_bytes / 1e9);
        printf("judge-skipped n = %lld (%.1f GB free)\n", n, free_bytes / 1e9);
        return 0;
    }
    unsigned long long s = lab_fresh(lab);
    const float a = lab_value(s, 0, 0, A_LOW, A_HIGH);
    float *x = (float *)lab_shared(lab, bytes), *y = (float *)lab_shared(lab, bytes);
    lab_fill_floats(x, n, s, 1, LOW, HIGH);
    lab_fill_floats(y, n, s, 2, LOW, HIGH);
    struct lab_call c;
    lab_call_start(&c);
    lab_float(&c, a);
    lab_use(&c, x);
    lab_use(&c, y);
    lab_int(&c, n);
    lab_int(&c, lab->dev.sms);
    int stopped = lab_run(lab, &c);
    if (!stopped && lab_one_kernel(lab, "n past 2^31", ONE_KERNEL))
        return 1;
    if (stopped) {
        lab_hint(lab, "the small sizes passed and n past 2^31 did not: an index in int overflows at 2^31 (use "
                      "long long for i and for the stride)");
        return 1;
    }
    unsigned long long *counts, host[2] = {0, ~0ull};
    CUDA_CHECK(cudaMalloc(&counts, sizeof host));
    CUDA_CHECK(cudaMemcpy(counts, host, sizeof host, cudaMemcpyHostToDevice));
    verify<<<4 * lab->dev.sms, 256>>>(a, y, n, s, counts, counts + 1);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(host, counts, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(counts));
    if (host[0] == 0) {
        printf("  n = %lld: PASS (every element within %.1e, relative; checked on the GPU)\n", n, 2 * FLOAT_ROUNDING);
        return 0;
    }
    printf("  n = %lld: FAIL, %llu of %lld elements wrong; first: element %llu\n", n, host[0], n, host[1]);
    lab_hint(lab, "the small sizes passed and n past 2^31 did not: an index in int overflows at 2^31 (use long "
                  "long for i and for the stride)");
    lab->failures++;
    return 1;
}

/* ==== The sizes, and the timed runs ==== */

/* Every size, each with a, x and y of its own, y checked whole; then the size past 2^31. */
static void check_sizes(struct lab *lab)
{
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        const float a = lab_value(s, 0, 0, A_LOW, A_HIGH);
        for (long long i = 0; i < n; i++) {
            x[i] = lab_value(s, 1, i, LOW, HIGH);
            y[i] = lab_value(s, 2, i, LOW, HIGH);
            want[i] = a * x[i] + y[i];
        }
        struct lab_call c;
        lab_call_start(&c);
        lab_float(&c, a);
        lab_in(&c, x, n * sizeof(float));
        lab_out(&c, y, got, n * sizeof(float));
        lab_int(&c, n);
        lab_int(&c, lab->dev.sms);
        if (lab_run(lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %lld", n);
        if (lab_one_kernel(lab, what, ONE_KERNEL))
            continue;
        /* One multiply and one add, each rounded once (or one fused multiply-add): 2 roundings. */
        if (lab_check_floats(lab, what, got, want, n, 0, 2 * FLOAT_ROUNDING, "a multiply and an add, each rounded"))
            for (long long i = 0; i < n; i++)
                if (got[i] == y[i]) {
                    lab_hint(lab, "element %lld still holds its old value: no thread reached it", i);
                    break;
                } else if (got[i] > want[i] + 0.25f) {
                    lab_hint(lab, "element %lld got a x added more than once: do two threads' loops visit the "
                             "same index? (the stride is the whole grid's threads)", i);
                    break;
                }
    }
    free(x), free(y), free(want), free(got);
    if (!lab->small && !lab->failures)
        past_2_31(lab);
}

/* The timed runs: y is written in place, so before each run x and y are both drawn afresh on the GPU
 * (lab_fill_floats, the same values random.h gives the CPU), and a with them: a run's answer is worth
 * nothing to the next, and nothing the file left in x or y survives. After it, a fresh sample of y is
 * checked against a x + y of the same draws, made again here. */
static void time_runs(struct lab *lab, int reps)
{
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *dx = (float *)lab_shared(lab, bytes), *dy = (float *)lab_shared(lab, bytes);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = dy, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        const float a = lab_value(s, 0, 0, A_LOW, A_HIGH);
        lab_fill_floats(dx, n_max, s, 1, LOW, HIGH);
        lab_fill_floats(dy, n_max, s, 2, LOW, HIGH);
        struct lab_call c;
        lab_call_start(&c);
        lab_float(&c, a);
        lab_use(&c, dx);
        lab_use(&c, dy);
        lab_int(&c, n_max);
        lab_int(&c, lab->dev.sms);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            long long i = sample.index[k];
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = a * lab_value(s, 1, i, LOW, HIGH) + lab_value(s, 2, i, LOW, HIGH);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_sample_floats(lab, what, &sample, sample_got, sample_want, 0, 2 * FLOAT_ROUNDING,
                                    "a multiply and an add, each rounded"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 12.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_map: y = a x + y with a grid-stride loop", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
