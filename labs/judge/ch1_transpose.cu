/* ch1_transpose's judge: the student's transpose on matrices of awkward shapes (1 x 1, 31 x 33, one
 * row, tall and thin), saying when the answer is the input itself, then timed on 8193 x 4099 against the
 * copy bandwidth. The matrix is random, from the seed. Before each timed run the output is poisoned; a
 * sample of it, drawn afresh each run, is checked after. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* Element o of the transpose (cols x rows) of a rows x cols matrix: row o / rows and column o % rows of
 * the transpose are column and row of the matrix. */
static float transposed(const float *matrix, int rows, int cols, long long o)
{
    return matrix[(o % rows) * cols + o / rows];
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
        matrix[i] = lab_uniform(lab.seed, 1, i);  /* random: an element from the wrong place shows */
    for (int k = 0; k < COUNT_OF(shapes) && !lab.time; k++) {
        int rows = shapes[k][0], cols = shapes[k][1];
        long long n = (long long)rows * cols;
        if (lab_skip(&lab, n))
            continue;
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, matrix, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, rows);
        lab_int(&c, cols);
        if (lab_run(&lab, &c))
            break;
        for (long long o = 0; o < n; o++)
            want[o] = transposed(matrix, rows, cols, o);
        char what[64];
        snprintf(what, sizeof what, "%d x %d in, %d x %d out", rows, cols, cols, rows);
        if (lab_check_floats(&lab, what, got, want, n, rows, 0, "a copy: exact") && rows > 1 && cols > 1 &&
            got[1] == matrix[1])
            lab_hint(&lab, "out begins as in does: the matrix was copied, not transposed (or transposed twice)");
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: the output is poisoned before each, so that every run must write all of it. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    int rows = shapes[last][0], cols = shapes[last][1];
    size_t bytes = n_max * sizeof(float);
    float *in = (float *)lab_shared(&lab, bytes), *out = (float *)lab_shared(&lab, bytes);
    CUDA_CHECK(cudaMemcpy(in, matrix, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, rows);
    lab_int(&c, cols);
    static struct lab_sample s;
    s.output = out, s.size = 4, s.n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        lab_poison(out, bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_float(&s, k);
            want[k] = transposed(matrix, rows, cols, s.index[k]);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, got, want, rows, 0, "a copy: exact"))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(matrix), free(got), free(want);
    return lab_end(&lab);
}
