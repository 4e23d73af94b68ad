/* ch3_stencil's harness: checks the student's Jacobi step bit for bit against the CPU, after one step
 * and after three, on plates of awkward sides (3: one inside point; 4; 33; a block of columns and one;
 * 1000, whose 998 inside rows end in part of a walk; 1025), then times a step on an 8192 x 8192 plate
 * against the copy bandwidth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include LAB_FILE

struct problem { float *a, *b; int n; };  /* the field is in a; a step writes b, then the two swap */

/* b starts as the plate's edges around poison: an inside point that no thread writes stays NaN. */
static void problem_start(struct problem *p, const float *plate, int n)
{
    size_t row = (size_t)n * sizeof(float);
    p->n = n;
    p->a = (float *)lab_device_alloc(row * n);
    p->b = (float *)lab_device_alloc(row * n);
    CUDA_CHECK(cudaMemcpy(p->a, plate, row * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->b, plate, row, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->b + (size_t)(n - 1) * n, plate + (size_t)(n - 1) * n, row, cudaMemcpyHostToDevice));
    for (int col = 0; col < n; col += n - 1)  /* columns 0 and n - 1 of rows 1 to n - 2: one float a row */
        CUDA_CHECK(cudaMemcpy2D(p->b + n + col, row, plate + n + col, row, sizeof(float), n - 2, cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_jacobi_step(p->a, p->b, p->n);
    float *t = p->a;
    p->a = p->b, p->b = t;
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->a));
    CUDA_CHECK(cudaFree(p->b));
}

/* `steps` steps on the CPU, the additions in the statement's order; returns the buffer holding the last. */
static float *cpu_steps(float *a, float *b, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        for (int row = 1; row < n - 1; row++)
            for (int col = 1; col < n - 1; col++) {
                long long i = (long long)row * n + col;
                b[i] = 0.25f * ((a[i - n] + a[i + n]) + (a[i - 1] + a[i + 1]));
            }
        float *t = a;
        a = b, b = t;
    }
    return a;
}

/* After the first failed check, the stencil's own signatures: an edge written, or every point right to
 * within rounding. */
static void hint_stencil(struct lab *lab, const float *got, const float *want, int n)
{
    for (long long i = 0; i < (long long)n * n; i++) {
        long long row = i / n, col = i % n;
        if ((row == 0 || row == n - 1 || col == 0 || col == n - 1) && got[i] != want[i]) {
            lab_hint(lab, "an edge point changed (row %lld, column %lld): rows 0 and n - 1 and columns 0 and n - 1 "
                          "keep their values; write rows and columns 1 to n - 2 only", row, col);
            return;
        }
    }
    for (long long i = 0; i < (long long)n * n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-6f * want[i]))
            return;
    lab_hint(lab, "every wrong point is right to within rounding: add up + down, then left + right, then the "
                  "two sums, and multiply by 0.25f once; another order (or a * b + c, which the compiler fuses "
                  "into one instruction) rounds differently");
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_stencil: a Jacobi step, each thread walking down a column", &reps);
    const int sides[] = {3, 4, 33, 129, 361, 1000, 1025, 8192}, step_counts[] = {1, 3};
    const int last = COUNT_OF(sides) - 1, n_max = sides[last];
    size_t bytes_max = (size_t)n_max * n_max * sizeof(float);
    float *plate = (float *)host_alloc(bytes_max), *other = (float *)host_alloc(bytes_max);
    float *got = (float *)host_alloc(bytes_max), *start = (float *)host_alloc(bytes_max);
    unsigned seed = 1;
    for (size_t i = 0; i < bytes_max / sizeof(float); i++)  /* random: a neighbour from the wrong place shows */
        start[i] = lab_random(&seed);
    struct problem p;
    for (int k = 0; k < COUNT_OF(sides); k++)
        for (int j = 0; j < COUNT_OF(step_counts); j++) {
            int n = sides[k], steps = step_counts[j];
            size_t bytes = (size_t)n * n * sizeof(float);
            if (lab_skip(&lab, (long long)n * n) || (n == n_max && steps > 1))
                continue;
            problem_start(&p, start, n);
            for (int s = 0; s < steps; s++)
                run(&p);
            CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(got, p.a, bytes, cudaMemcpyDeviceToHost));
            problem_end(&p);
            memcpy(plate, start, bytes);
            memcpy(other, start, bytes);
            const float *want = cpu_steps(plate, other, n, steps);
            char what[64];
            snprintf(what, sizeof what, "%d x %d plate, %d step%s", n, n, steps, steps > 1 ? "s" : "");
            if (lab_check_floats(&lab, what, got, want, (long long)n * n, n, 0, "the CPU adds in the same order: exact") &&
                lab.failures == 1)  /* the first failure's signature is the telling one */
                hint_stencil(&lab, got, want, n);
        }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    problem_start(&p, start, n_max);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 8.0 * (n_max - 2) * (n_max - 2), "GB/s", copy_gbs, "of the copy bandwidth", 50);
    problem_end(&p);
    free(plate), free(other), free(got), free(start);
    return lab_end(&lab);
}
