/* reduction.h: the harness of the two reduction labs (ch2_block_sum, ch2_warp_sum), which differ only
 * in how a block adds its threads' sums. Included by their harness files after the student's file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libraries.h"

struct problem { float *x, *partial, *result; long long n; int sms; };

static void problem_start(struct problem *p, const float *x, long long n, int sms)
{
    p->n = n, p->sms = sms;
    p->x = (float *)lab_device_alloc(n * sizeof(float));
    p->partial = (float *)lab_device_alloc(32 * sms * sizeof(float));
    p->result = (float *)lab_device_alloc(sizeof(float));
    CUDA_CHECK(cudaMemcpy(p->x, x, n * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_sum(p->x, p->n, p->partial, p->result, p->sms);
}

static float sum_on_gpu(struct problem *p)
{
    float got;
    run(p);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&got, p->result, sizeof(float), cudaMemcpyDeviceToHost));
    return got;
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->x));
    CUDA_CHECK(cudaFree(p->partial));
    CUDA_CHECK(cudaFree(p->result));
}

static int reduction_lab(int argc, char **argv, const char *title, int block_additions)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float));
    unsigned seed = 2;
    for (long long i = 0; i < n_max; i++)
        x[i] = lab_random(&seed) + 0.5f;  /* positive: the sum's relative error is bounded */
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        problem_start(&p, x, n, lab.dev.sms);
        float got = sum_on_gpu(&p);
        double want = 0.0, first_block = 0.0;
        for (long long i = 0; i < n; i++)
            want += x[i];
        for (long long i = 0; i < n && i < THREADS; i++)
            first_block += x[i];
        /* An element goes through its thread's additions, the block's and the second pass's, each
         * rounded: at most that many times 2^-24, relative, for positive terms. */
        long long threads = 32LL * lab.dev.sms * THREADS;
        double additions = (n + threads - 1) / threads + block_additions + (32 * lab.dev.sms + THREADS - 1) / THREADS +
                           block_additions;
        char what[32], why[128];
        snprintf(what, sizeof what, "n = %lld", n);
        snprintf(why, sizeof why, "%.0f float additions an element goes through, each off by 2^-24", additions);
        float want_float = (float)want;
        if (lab_check_floats(&lab, what, &got, &want_float, 1, 0, additions * FLOAT_ROUNDING, why)) {
            if (n > THREADS && fabs(got - first_block) <= 1e-3 * first_block)
                lab_hint(&lab, "the result is the sum of the first %d elements only: the first block's", THREADS);
            else if (got > 1.5 * want)
                lab_hint(&lab, "the sum is too large: is an element, or a partial sum, counted twice?");
        } else if (k == COUNT_OF(sizes) - 2) {
            float again = sum_on_gpu(&p);
            if (!lab_same_twice(&lab, &got, &again, sizeof got))
                lab.failures++;
        }
        problem_end(&p);
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    problem_start(&p, x, n_max, lab.dev.sms);
    struct stats cub = cub_sum_time(p.x, n_max, reps);
    print_bandwidth("cub::DeviceReduce::Sum", cub, 4.0 * n_max, 0, "");
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 4.0 * n_max, "GB/s", 4.0 * n_max / (cub.median * 1e-3) / 1e9, "of CUB's speed", 60);
    problem_end(&p);
    free(x);
    return lab_end(&lab);
}
