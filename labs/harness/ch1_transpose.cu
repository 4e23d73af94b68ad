/* ch1_transpose's harness: checks the student's transpose on matrices of awkward shapes (1 x 1, 31 x
 * 33, one row, tall and thin), says when the answer is the input itself, then times it on 8193 x 4099
 * against the copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include LAB_FILE

struct problem { float *in, *out; int rows, cols; };

static void problem_start(struct problem *p, const float *matrix, int rows, int cols)
{
    size_t bytes = (size_t)rows * cols * sizeof(float);
    p->rows = rows, p->cols = cols;
    p->in = (float *)lab_device_alloc(bytes);
    p->out = (float *)lab_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(p->in, matrix, bytes, cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_transpose(p->in, p->out, p->rows, p->cols);
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
    lab_start(&lab, argc, argv, "Lab ch1_transpose: a transpose through shared-memory tiles", &reps);
    const int shapes[][2] = {{1, 1}, {31, 33}, {32, 32}, {1, 1025}, {1025, 33}, {33, 1025}, {1023, 1025}, {8193, 4099}};
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
    float *matrix = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float));
    for (long long i = 0; i < n_max; i++)
        matrix[i] = (float)(i % 16777216);  /* each element its own value (for the sizes checked) */
    struct problem p;
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int rows = shapes[k][0], cols = shapes[k][1];
        long long n = (long long)rows * cols;
        if (lab_skip(&lab, n))
            continue;
        problem_start(&p, matrix, rows, cols);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got, p.out, n * sizeof(float), cudaMemcpyDeviceToHost));
        problem_end(&p);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                want[(long long)c * rows + r] = matrix[(long long)r * cols + c];
        char what[64];
        snprintf(what, sizeof what, "%d x %d in, %d x %d out", rows, cols, cols, rows);
        if (lab_check_floats(&lab, what, got, want, n, rows, 0, "a copy: exact") && rows > 1 && cols > 1 && got[1] == matrix[1])
            lab_hint(&lab, "out begins as in does: the matrix was copied, not transposed (or transposed twice)");
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    problem_start(&p, matrix, shapes[last][0], shapes[last][1]);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 45);
    problem_end(&p);
    free(matrix), free(got), free(want);
    return lab_end(&lab);
}
