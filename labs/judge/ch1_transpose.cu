/* ch1_transpose's judge: the student's transpose on matrices of awkward shapes (1 x 1, 31 x 33, one
 * row, tall and thin), saying when the answer is the input itself, then timed on 8193 x 4099 against the
 * copy bandwidth. The matrix is random, drawn afresh for every call, timed runs included (random.h, from
 * lab_fresh). Before each timed run the matrix is drawn again on the GPU and the output is poisoned; a
 * sample of it, drawn afresh each run, is checked after. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* The elements' range (stream 1): random, so that an element from the wrong place shows. */
#define LOW 0.0f
#define HIGH 1.0f

/* Where element o of the transpose (cols x rows) of a rows x cols matrix comes from: row o / rows and
 * column o % rows of the transpose are column and row of the matrix. */
static long long transposed(int rows, int cols, long long o)
{
    return (o % rows) * cols + o / rows;
}

static const int shapes[][2] = {{1, 1}, {31, 33}, {32, 32}, {1, 1025}, {1025, 33}, {33, 1025}, {1023, 1025},
                                {8193, 4099}};

/* Every shape, each with a matrix of its own, the output checked whole. */
static void check_shapes(struct lab *lab)
{
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
    float *matrix = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(shapes); k++)
        big += (long long)shapes[k][0] * shapes[k][1] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int rows = shapes[k][0], cols = shapes[k][1];
        long long n = (long long)rows * cols;
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (long long i = 0; i < n; i++)
            matrix[i] = lab_value(s, 1, i, LOW, HIGH);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, matrix, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, rows);
        lab_int(&c, cols);
        if (lab_run(lab, &c))
            break;
        for (long long o = 0; o < n; o++)
            want[o] = matrix[transposed(rows, cols, o)];
        char what[64];
        snprintf(what, sizeof what, "%d x %d in, %d x %d out", rows, cols, cols, rows);
        if (lab_check_floats(lab, what, got, want, n, rows, 0, "a copy: exact") && rows > 1 && cols > 1 &&
            got[1] == matrix[1])
            lab_hint(lab, "out begins as in does: the matrix was copied, not transposed (or transposed twice)");
    }
    free(matrix), free(got), free(want);
}

/* The timed runs: before each, the matrix is drawn afresh on the GPU (lab_fill_floats) and the output is
 * poisoned, so that every run must read all of the one and write all of the other; a sampled element's
 * reference is its source element, made again here from the run's seed. */
static void time_runs(struct lab *lab, int reps)
{
    const int last = COUNT_OF(shapes) - 1, rows = shapes[last][0], cols = shapes[last][1];
    long long n_max = (long long)rows * cols;
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *in = (float *)lab_shared(lab, bytes), *out = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, rows);
    lab_int(&c, cols);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = out, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_fill_floats(in, n_max, s, 1, LOW, HIGH);
        lab_poison(out, bytes);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = lab_value(s, 1, transposed(rows, cols, sample.index[k]), LOW, HIGH);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_sample_floats(lab, what, &sample, sample_got, sample_want, rows, 0, "a copy: exact"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_transpose: a transpose through shared-memory tiles", &reps);
    if (!lab.time)
        check_shapes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
