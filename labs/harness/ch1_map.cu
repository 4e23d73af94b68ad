/* ch1_map's harness: checks the student's saxpy at sizes that break the usual mistakes, then times it
 * against the copy bandwidth. LAB_FILE is the file under test (make lab sets it). Arrays are allocated
 * to the exact size, so that compute-sanitizer's memcheck sees an access past the end. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include LAB_FILE

struct problem { float a; float *x, *y; long long n; int sms; };

static void problem_start(struct problem *p, const float *x, const float *y, long long n, int sms)
{
    p->a = 0.5f, p->n = n, p->sms = sms;
    p->x = (float *)lab_device_alloc(n * sizeof(float));
    p->y = (float *)lab_device_alloc(n * sizeof(float));
    CUDA_CHECK(cudaMemcpy(p->x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->y, y, n * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_saxpy(p->a, p->x, p->y, p->n, p->sms);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->x));
    CUDA_CHECK(cudaFree(p->y));
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
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    unsigned seed = 1;
    for (long long i = 0; i < n_max; i++) {
        x[i] = lab_random(&seed) + 1.0f;
        y[i] = lab_random(&seed) + 1.0f;
    }
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        problem_start(&p, x, y, n, lab.dev.sms);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got, p.y, n * sizeof(float), cudaMemcpyDeviceToHost));
        problem_end(&p);
        for (long long i = 0; i < n; i++)
            want[i] = p.a * x[i] + y[i];
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
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    problem_start(&p, x, y, n_max, lab.dev.sms);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 12.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 50);
    problem_end(&p);
    free(x), free(y), free(want), free(got);
    return lab_end(&lab);
}
