/* ch1_debug_bounds's judge: the student's adjust_log (out = gain * log2(1 + in), two pixels of a row per
 * thread) on pictures of awkward shapes, odd and even widths (1 x 1, one row, one column, sides of 31,
 * 32, 33, 1024, 1025), then timed on an 8191 x 4097 picture against the copy bandwidth. Every call's
 * picture and gain, timed runs included, are drawn afresh (random.h, from lab_fresh): the pixels over the
 * 0..1 of the course's pictures. Before each timed run the picture is drawn again on the GPU and the
 * output is poisoned; a sample of it, drawn afresh each run, is checked after.
 * The file as handed out is right on every pixel: its bug is an access past the end of both arrays,
 * which only compute-sanitizer's memcheck (labs/grade's step 2) sees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* CUDA's log2f is within 1 ulp (the CUDA C++ Programming Guide's table of maximum errors) and the CPU's
 * too, 2^-23 each; each side then rounds one multiply: 8 x 2^-24 covers it, relative. 1 + in is rounded
 * the same on both sides, and log2f(1) is 0 on both. */
#define TOLERANCE (8 * FLOAT_ROUNDING)
static const char *const why = "log2f within an ulp on the GPU and on the CPU, a multiply rounded on each";

/* The ranges: the pixels' (stream 1), the course's pictures' 0..1; the gain's (stream 0). */
#define LOW 0.0f
#define HIGH 1.0f
#define GAIN_LOW 0.5f
#define GAIN_HIGH 1.5f

/* Pixel i of a call's picture, on the CPU as fill.cu's lab_fill_floats makes it on the GPU. */
static float pixel(unsigned long long seed, long long i)
{
    return lab_value(seed, 1, i, LOW, HIGH);
}

static float adjusted(float value, float gain)
{
    return gain * log2f(1.0f + value);
}

/* After a failed check: the wrong pixels all in the last column, at an odd width, are the row's last
 * pixel, which a pair-at-a-time loop must not skip. */
static void hint_last_column(struct lab *lab, const float *got, const float *want, int width, int height)
{
    long long wrong = 0, in_last_column = 0;
    for (long long i = 0; i < (long long)width * height; i++)
        if (!(fabsf(got[i] - want[i]) <= TOLERANCE * fabsf(want[i]))) {
            wrong++;
            in_last_column += i % width == width - 1;
        }
    if (wrong > 0 && wrong == in_last_column)
        lab_hint(lab, "every wrong pixel is in the last column, at an odd width: a guard that stops the loop "
                      "a pixel short silences memcheck and loses that pixel. memcheck (step 2) must be clean "
                      "with every pixel written");
}

/* Odd widths leave a pixel without a pair at the end of every row; even ones do not. */
static const int shapes[][2] = {{1, 1},    {2, 1},    {31, 33},    {32, 33},     {33, 31},    {1025, 1},
                                {1, 1025}, {1024, 7}, {1025, 7},   {1023, 1025}, {8191, 4097}};

/* Every shape, each with a picture and a gain of its own, the output checked whole. */
static void check_shapes(struct lab *lab)
{
    const int last = COUNT_OF(shapes) - 1;
    const long long n_max = (long long)shapes[last][0] * shapes[last][1];
    float *picture = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float));
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
        const float gain = lab_value(s, 0, 0, GAIN_LOW, GAIN_HIGH);
        for (long long i = 0; i < n; i++)
            picture[i] = pixel(s, i);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, picture, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, width);
        lab_int(&c, height);
        lab_float(&c, gain);
        if (lab_run(lab, &c))
            break;
        for (long long i = 0; i < n; i++)
            want[i] = adjusted(picture[i], gain);
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(lab, what, got, want, n, width, TOLERANCE, why))
            hint_last_column(lab, got, want, width, height);
    }
    free(picture), free(got), free(want);
}

/* The timed runs: before each, the picture is drawn afresh on the GPU (lab_fill_floats) with a gain of
 * its own, and the output is poisoned, so that every run must read all of the one and write all of the
 * other; a sampled pixel's reference is made here from its pixel, made again from the run's seed. */
static void time_runs(struct lab *lab, int reps)
{
    const int last = COUNT_OF(shapes) - 1, width = shapes[last][0], height = shapes[last][1];
    const long long n_max = (long long)width * height;
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *in = (float *)lab_shared(lab, bytes), *out = (float *)lab_shared(lab, bytes);
    static struct lab_sample sample;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    sample.output = out, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        const float gain = lab_value(s, 0, 0, GAIN_LOW, GAIN_HIGH);
        lab_fill_floats(in, n_max, s, 1, LOW, HIGH);
        lab_poison(out, bytes);
        struct lab_call c;
        lab_call_start(&c);
        lab_use(&c, in);
        lab_use(&c, out);
        lab_int(&c, width);
        lab_int(&c, height);
        lab_float(&c, gain);
        for (int y = clock.run + 1; y < height; y += height / 8)  /* the last pixel of a few rows, every run */
            lab_sample_add(&sample, (long long)y * width + width - 1);
        lab_sample_draw(lab, &sample);
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            sample_got[k] = lab_sample_float(&sample, k);
            sample_want[k] = adjusted(pixel(s, sample.index[k]), gain);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled pixels", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, sample_got, sample_want, sample.count, 0, TOLERANCE, why))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d pixels drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_debug_bounds: an access past the end, found with memcheck", &reps);
    if (!lab.time)
        check_shapes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
