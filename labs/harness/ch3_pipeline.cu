/* ch3_pipeline's harness: the student's pipeline from pinned memory to pinned memory, checked at sizes
 * below, at and past a chunk, then timed by the wall clock (it is the whole round trip that counts)
 * against the transfer bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include LAB_FILE

struct problem { float *host_in, *host_out, *dev_in, *dev_out; long long n; cudaStream_t streams[STREAMS]; };

static void problem_start(struct problem *p, long long n)
{
    p->n = n;
    CUDA_CHECK(cudaMallocHost(&p->host_in, n * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&p->host_out, n * sizeof(float)));
    memset(p->host_out, LAB_POISON_BYTE, n * sizeof(float));
    p->dev_in = (float *)lab_device_alloc(n * sizeof(float));
    p->dev_out = (float *)lab_device_alloc(n * sizeof(float));
    unsigned seed = 3;
    for (long long i = 0; i < n; i++)
        p->host_in[i] = lab_random(&seed);
    for (int s = 0; s < STREAMS; s++)
        CUDA_CHECK(cudaStreamCreate(&p->streams[s]));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_pipeline(p->host_in, p->host_out, p->n, p->dev_in, p->dev_out, p->streams);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < STREAMS; s++)
        CUDA_CHECK(cudaStreamDestroy(p->streams[s]));
    CUDA_CHECK(cudaFreeHost(p->host_in));
    CUDA_CHECK(cudaFreeHost(p->host_out));
    CUDA_CHECK(cudaFree(p->dev_in));
    CUDA_CHECK(cudaFree(p->dev_out));
}

int main(int argc, char **argv)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_pipeline: copy in, compute and copy out, overlapped on streams", &reps);
    const long long sizes[] = {1, 33, 1025, 1000003, CHUNK, CHUNK + 1, 5LL * CHUNK + 12345, 32LL * CHUNK + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *want = (float *)host_alloc(n_max * sizeof(float));
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        problem_start(&p, n);
        run(&p);
        CHECK_LAUNCH();
        for (long long i = 0; i < n; i++)
            want[i] = 2.0f * p.host_in[i] + 1.0f;
        char what[32];
        snprintf(what, sizeof what, "n = %lld", n);
        lab_check_floats(&lab, what, p.host_out, want, n, 0, 2 * FLOAT_ROUNDING, "a multiply and an add, each rounded");
        problem_end(&p);
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    /* The transfer bound: in and out cross the host link once each; with a copy engine each way they can
     * overlap, so the larger of the two times is the least the round trip can take. */
    size_t bytes = n_max * sizeof(float);
    double h2d = measure_transfer_bandwidth(bytes, 1, 1), d2h = measure_transfer_bandwidth(bytes, 0, 1);
    double bound_gbs = bytes / (bytes / h2d > bytes / d2h ? bytes / h2d : bytes / d2h);
    printf("  host link: %.1f GB/s in, %.1f GB/s out (pinned, measured now)\n", h2d, d2h);
    problem_start(&p, n_max);
    struct stats ms = lab_time(&lab, reps, run, &p, 1);
    lab_report(&lab, ms, (double)bytes, "GB/s", bound_gbs, "of the transfer bound (per direction)", 50);
    problem_end(&p);
    free(want);
    return lab_end(&lab);
}
