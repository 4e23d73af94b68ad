/* ch1_map's judge: the student's saxpy at sizes that break the usual mistakes, then, on a GPU with the
 * memory for it, past 2^31 elements, where an int index overflows; then timed against the copy
 * bandwidth. Every input comes from the seed (random.h); x and y are made on the GPU for the size past
 * 2^31, and checked there. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* ==== The size past 2^31, on the GPU ==== */

__global__ void fill(float *x, float *y, long long n, unsigned long long seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        x[i] = lab_uniform(seed, 1, i) + 1.0f;
        y[i] = lab_uniform(seed, 2, i) + 1.0f;
    }
}

/* Counts the elements of y that are not a x + y0 (y0 made again from the seed), and finds the first. */
__global__ void verify(float a, const float *y, long long n, unsigned long long seed, unsigned long long *wrong,
                       unsigned long long *first)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x) {
        float want = a * (lab_uniform(seed, 1, i) + 1.0f) + (lab_uniform(seed, 2, i) + 1.0f);
        if (!(fabsf(y[i] - want) <= 2 * FLOAT_ROUNDING * fabsf(want))) {
            atomicAdd(wrong, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

static int past_2_31(struct lab *lab, float a)
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
    float *x = (float *)lab_shared(lab, bytes), *y = (float *)lab_shared(lab, bytes);
    fill<<<4 * lab->dev.sms, 256>>>(x, y, n, lab->seed);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    struct lab_call c;
    lab_call_start(&c);
    lab_float(&c, a);
    lab_use(&c, x);
    lab_use(&c, y);
    lab_int(&c, n);
    lab_int(&c, lab->dev.sms);
    if (lab_run(lab, &c)) {
        lab_hint(lab, "the small sizes passed and n past 2^31 did not: an index in int overflows at 2^31 (use "
                      "long long for i and for the stride)");
        return 1;
    }
    unsigned long long *counts, host[2] = {0, ~0ull};
    CUDA_CHECK(cudaMalloc(&counts, sizeof host));
    CUDA_CHECK(cudaMemcpy(counts, host, sizeof host, cudaMemcpyHostToDevice));
    verify<<<4 * lab->dev.sms, 256>>>(a, y, n, lab->seed, counts, counts + 1);
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

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_map: y = a x + y with a grid-stride loop", &reps);
    /* 1 to 1025 sit around a warp and a block; 1000003 is a prime; the last, over 2^26, is timed and
     * needs more than one pass of the grid on every GPU. */
    const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    const float a = 0.25f + 0.5f * lab_uniform(lab.seed, 0, 0);
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    for (long long i = 0; i < n_max; i++) {
        x[i] = lab_uniform(lab.seed, 1, i) + 1.0f;
        y[i] = lab_uniform(lab.seed, 2, i) + 1.0f;
        want[i] = a * x[i] + y[i];
    }
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        struct lab_call c;
        lab_call_start(&c);
        lab_float(&c, a);
        lab_in(&c, x, n * sizeof(float));
        lab_out(&c, y, got, n * sizeof(float));
        lab_int(&c, n);
        lab_int(&c, lab.dev.sms);
        if (lab_run(&lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %lld", n);
        /* One multiply and one add, each rounded once (or one fused multiply-add): 2 roundings. */
        if (lab_check_floats(&lab, what, got, want, n, 0, 2 * FLOAT_ROUNDING, "a multiply and an add, each rounded"))
            for (long long i = 0; i < n; i++)
                if (got[i] == y[i]) {
                    lab_hint(&lab, "element %lld still holds its old value: no thread reached it", i);
                    break;
                } else if (got[i] > want[i] + 0.25f) {
                    lab_hint(&lab, "element %lld got a x added more than once: do two threads' loops visit the "
                             "same index? (the stride is the whole grid's threads)", i);
                    break;
                }
    }
    if (!lab.time && !lab.small && !lab.failures)
        past_2_31(&lab, a);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: y is written in place, so each run starts from y as it was (a copy the runner
     * cannot see), and a sample of its result is checked. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    size_t bytes = n_max * sizeof(float);
    float *dx = (float *)lab_shared(&lab, bytes), *dy = (float *)lab_shared(&lab, bytes);
    float *y0 = (float *)lab_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(y0, y, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_float(&c, a);
    lab_use(&c, dx);
    lab_use(&c, dy);
    lab_int(&c, n_max);
    lab_int(&c, lab.dev.sms);
    static struct lab_sample s;
    s.output = dy, s.size = 4, s.n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        CUDA_CHECK(cudaMemcpy(dy, y0, bytes, cudaMemcpyDeviceToDevice));
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_float(&s, k);
            y[k] = want[s.index[k]];  /* y's host copy is no longer needed: it holds the sample's want */
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, got, y, 0, 2 * FLOAT_ROUNDING,
                                    "a multiply and an add, each rounded"))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 12.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    CUDA_CHECK(cudaFree(y0));
    free(x), free(y), free(want), free(got);
    return lab_end(&lab);
}
