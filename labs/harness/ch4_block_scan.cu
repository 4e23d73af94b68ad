/* ch4_block_scan's harness: the student's segmented scan against the CPU's, exactly, at sizes around a
 * warp and a block and with a short last segment, then timed against the copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include LAB_FILE

struct problem { unsigned *in, *out; long long n; };

static void problem_start(struct problem *p, const unsigned *values, long long n)
{
    p->n = n;
    p->in = (unsigned *)lab_device_alloc(n * sizeof(unsigned));
    p->out = (unsigned *)lab_device_alloc(n * sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(p->in, values, n * sizeof(unsigned), cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_block_scan(p->in, p->out, p->n);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->in));
    CUDA_CHECK(cudaFree(p->out));
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_block_scan: an inclusive scan per block of 1024", &reps);
    const long long sizes[] = {1, 31, 32, 33, 1023, 1024, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned *values = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *want = (unsigned *)host_alloc(n_max * sizeof(unsigned)), *got = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned seed = 6;
    for (long long i = 0; i < n_max; i++)
        values[i] = 1 + (unsigned)(lab_random(&seed) * 7);  /* 1..7: every step of the scan shows */
    struct problem p;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        for (long long i = 0; i < n; i++)
            want[i] = values[i] + (i % THREADS ? want[i - 1] : 0);
        problem_start(&p, values, n);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got, p.out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        problem_end(&p);
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
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    problem_start(&p, values, n_max);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 25);
    problem_end(&p);
    free(values), free(want), free(got);
    return lab_end(&lab);
}
