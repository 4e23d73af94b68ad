/* ch1_grid_2d's judge: the student's add_bias and its 2D launch on matrices of awkward shapes (1 x 1, one
 * row, one column, sides of 16, 17, 31, long and flat both ways), then timed on an 8191 x 8193 matrix
 * against the copy bandwidth. in and bias are drawn afresh for every call, timed runs included
 * (random.h, from lab_fresh); out is poisoned before every call, so an element no thread wrote shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { SIDE = 16 };  /* the statement's blocks: 16 x 16 */

/* in's and bias's range (streams 1 and 2): both signs, so that a sign lost or a subtraction shows. */
#define LOW -4.0f
#define HIGH 4.0f

/* {width, height}: one block, then shapes around a block, a single element, a row, a column, long and
 * flat ones (where swapped x and y show), and the timed one, odd on both sides. 31 x 17 comes before the
 * shapes under 16 on a side: a grid rounded down still has a block there, and shows its signature before
 * a shape with no block at all makes a launch CUDA refuses. */
static const int shapes[][2] = {{16, 16}, {31, 17}, {1, 1}, {33, 1}, {1, 33}, {17, 31}, {1000, 3}, {3, 1000},
                                {257, 255}, {8191, 8193}};

static int rounded_up(int n) { return (n + SIDE - 1) / SIDE * SIDE; }
static int smaller(int a, int b) { return a < b ? a : b; }

/* 1 when the elements written form a rectangle at the top left, the rest still poison (its size in *cols
 * and *rows), else 0. */
static int written_rectangle(const float *got, int width, int height, int *cols, int *rows)
{
    *cols = *rows = 0;
    while (*cols < width && !isnan(got[*cols]))
        (*cols)++;
    while (*rows < height && !isnan(got[(size_t)*rows * width]))
        (*rows)++;
    for (int r = 0; r < height; r++)
        for (int c = 0; c < width; c++)
            if ((isnan(got[(size_t)r * width + c]) != 0) != (r >= *rows || c >= *cols))
                return 0;
    return *cols < width || *rows < height;
}

/* The known signatures of a wrong matrix: a part never written (x and y swapped, a grid rounded down),
 * or the bias of the row instead of the column's. */
static void hint_for(struct lab *lab, const float *got, const float *in, const float *bias, int width, int height)
{
    int cols, rows;
    if (written_rectangle(got, width, height, &cols, &rows) && cols > 0 && rows > 0) {
        if (cols == smaller(width, rounded_up(height)) && rows == smaller(height, rounded_up(width)))
            lab_hint(lab, "only the top-left corner, %d wide and %d high, was written: what a grid with x and y "
                          "swapped reaches. x (blockIdx.x, threadIdx.x) gives the column, y the row, and the grid's x "
                          "covers the width", cols, rows);
        else if (cols == width / SIDE * SIDE || rows == height / SIDE * SIDE)
            lab_hint(lab, "only the top-left corner, %d wide and %d high, was written: the grid is rounded down; "
                          "(width + 15) / 16 blocks cover the width, (height + 15) / 16 the height", cols, rows);
        return;
    }
    for (int r = 0; r < height; r++)
        for (int c = 0; c < width; c++) {
            size_t i = (size_t)r * width + c;
            if (got[i] == in[i] + bias[c])
                continue;
            if (r < width && got[i] == in[i] + bias[r])
                lab_hint(lab, "element (row %d, column %d) got bias[%d], its row's: bias holds one value per "
                              "column, bias[col]", r, c, r);
            else if (got[i] == in[i])
                lab_hint(lab, "element (row %d, column %d) holds in, without the bias", r, c);
            return;
        }
}

/* Every shape, each with in and bias of its own, out checked whole. */
static void check_shapes(struct lab *lab)
{
    const int last = COUNT_OF(shapes) - 1, max_width = shapes[last][0];
    const long long n_max = (long long)shapes[last][0] * shapes[last][1];
    size_t bytes = n_max * sizeof(float);
    float *in = (float *)host_alloc(bytes), *bias = (float *)host_alloc(max_width * sizeof(float));
    float *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    int big = 0;
    for (int k = 0; k < COUNT_OF(shapes); k++)
        big += (long long)shapes[k][0] * shapes[k][1] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long n = (long long)width * height;
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (long long i = 0; i < n; i++)
            in[i] = lab_value(s, 1, i, LOW, HIGH);
        for (int c = 0; c < width; c++)
            bias[c] = lab_value(s, 2, c, LOW, HIGH);
        for (long long i = 0; i < n; i++)
            want[i] = in[i] + bias[i % width];
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, in, n * sizeof(float));
        lab_in(&c, bias, width * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, width);
        lab_int(&c, height);
        if (lab_run(lab, &c))
            break;
        char what[48];
        snprintf(what, sizeof what, "%d x %d matrix (width x height)", width, height);
        /* One addition, which the GPU rounds exactly as the CPU does. */
        if (lab_check_floats(lab, what, got, want, n, width, 0, "one addition, rounded as on the CPU"))
            hint_for(lab, got, in, bias, width, height);
    }
    free(in), free(bias), free(want), free(got);
}

/* The timed runs: before each, in and bias are drawn afresh on the GPU (lab_fill_floats, the same values
 * random.h gives the CPU) and out is poisoned, so that nothing kept from a run before is worth anything;
 * after it, a fresh sample of out is checked against the sums of the same draws, made again here. */
static void time_runs(struct lab *lab, int reps)
{
    const int last = COUNT_OF(shapes) - 1, width = shapes[last][0], height = shapes[last][1];
    const long long n_max = (long long)width * height;
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *d_in = (float *)lab_shared(lab, bytes), *d_bias = (float *)lab_shared(lab, width * sizeof(float));
    float *d_out = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, d_in);
    lab_use(&c, d_bias);
    lab_use(&c, d_out);
    lab_int(&c, width);
    lab_int(&c, height);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = d_out, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_fill_floats(d_in, n_max, s, 1, LOW, HIGH);
        lab_fill_floats(d_bias, width, s, 2, LOW, HIGH);
        lab_poison(d_out, bytes);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            long long i = sample.index[k];
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = lab_value(s, 1, i, LOW, HIGH) + lab_value(s, 2, i % width, LOW, HIGH);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, sample_got, sample_want, sample.count, 0, 0,
                             "one addition, rounded as on the CPU"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max + 4.0 * width, "GB/s", copy_gbs,
                   "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_grid_2d: out = in + bias, one thread per element in a 2D grid", &reps);
    if (!lab.time)
        check_shapes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
