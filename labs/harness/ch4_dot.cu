/* ch4_dot's harness: the student's dot product against the CPU's (in double), several runs at a large
 * size to catch lost updates, then timed against the copy bandwidth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include LAB_FILE

struct problem { float *x, *y, *result; long long n; int sms; };

static void problem_start(struct problem *p, const float *x, const float *y, long long n, int sms)
{
    p->n = n, p->sms = sms;
    p->x = (float *)lab_device_alloc(n * sizeof(float));
    p->y = (float *)lab_device_alloc(n * sizeof(float));
    p->result = (float *)lab_device_alloc(sizeof(float));
    CUDA_CHECK(cudaMemcpy(p->x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->y, y, n * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_dot(p->x, p->y, p->n, p->result, p->sms);
}

static float dot_on_gpu(struct problem *p)
{
    float got;
    lab_poison(p->result, sizeof(float));
    run(p);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&got, p->result, sizeof(float), cudaMemcpyDeviceToHost));
    return got;
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->x));
    CUDA_CHECK(cudaFree(p->y));
    CUDA_CHECK(cudaFree(p->result));
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_dot: a dot product, one atomicAdd per block", &reps);
    const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    unsigned seed = 5;
    for (long long i = 0; i < n_max; i++) {
        x[i] = lab_random(&seed) + 0.5f;
        y[i] = lab_random(&seed) + 0.5f;
    }
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        double want = 0.0;
        for (long long i = 0; i < n; i++)
            want += (double)x[i] * y[i];
        problem_start(&p, x, y, n, lab.dev.sms);
        /* A product (1 rounding), the thread's additions, the tree's 8 and the atomics' (one per block). */
        int blocks = 32 * lab.dev.sms;
        long long threads = (long long)blocks * THREADS;
        double roundings = 1 + (n + threads - 1) / threads + 8 + blocks;
        char what[32], why[128];
        snprintf(what, sizeof what, "n = %lld", n);
        snprintf(why, sizeof why, "%.0f roundings an element's product goes through, each off by 2^-24", roundings);
        float want_float = (float)want;
        /* Three runs: a lost update need not happen in every one. */
        for (int r = 0; r < 3; r++) {
            float got = dot_on_gpu(&p);
            if (lab_check_floats(&lab, what, &got, &want_float, 1, 0, roundings * FLOAT_ROUNDING, why)) {
                if (got < want)
                    lab_hint(&lab, "the result is too small: block sums lost (a += on *result where several "
                             "blocks add at once needs atomicAdd)");
                break;
            }
            if (n < 1000000)
                break;
        }
        problem_end(&p);
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    problem_start(&p, x, y, n_max, lab.dev.sms);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 50);
    problem_end(&p);
    free(x), free(y);
    return lab_end(&lab);
}
