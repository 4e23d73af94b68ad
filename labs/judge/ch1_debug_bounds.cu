/* ch1_debug_bounds's judge: the student's adjust_log (out = gain * log2(1 + in), two pixels of a row per
 * thread) on pictures of awkward shapes, odd and even widths (1 x 1, one row, one column, sides of 31,
 * 32, 33, 1024, 1025), then timed on an 8191 x 4097 picture against the copy bandwidth. The picture is the
 * course's test picture with noise from the seed, and the gain comes from the seed too. Before each timed
 * run the output is poisoned; a sample of it, drawn afresh each run, is checked after.
 * The file as handed out is right on every pixel: its bug is an access past the end of both arrays,
 * which only compute-sanitizer's memcheck (labs/grade's step 2) sees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/image.h"
#include "lab.h"

/* CUDA's log2f is within 1 ulp (the CUDA C++ Programming Guide's table of maximum errors) and the CPU's
 * too, 2^-23 each; each side then rounds one multiply: 8 x 2^-24 covers it, relative. 1 + in is rounded
 * the same on both sides, and log2f(1) is 0 on both. */
#define TOLERANCE (8 * FLOAT_ROUNDING)
static const char *const why = "log2f within an ulp on the GPU and on the CPU, a multiply rounded on each";

/* The course's test picture with a fifth of each pixel's value drawn from the seed (stream 1). */
static void make_picture(float *picture, int width, int height, unsigned long long seed)
{
    test_picture(picture, width, height);
    for (long long i = 0; i < (long long)width * height; i++)
        picture[i] = 0.8f * picture[i] + 0.2f * lab_uniform(seed, 1, i);
}

static float adjusted(const float *picture, float gain, long long i)
{
    return gain * log2f(1.0f + picture[i]);
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

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_debug_bounds: an access past the end, found with memcheck", &reps);
    /* Odd widths leave a pixel without a pair at the end of every row; even ones do not. */
    const int shapes[][2] = {{1, 1},    {2, 1},    {31, 33},    {32, 33},     {33, 31},    {1025, 1},
                             {1, 1025}, {1024, 7}, {1025, 7},   {1023, 1025}, {8191, 4097}};
    const int last = COUNT_OF(shapes) - 1;
    const long long n_max = (long long)shapes[last][0] * shapes[last][1];
    const float gain = 0.5f + lab_uniform(lab.seed, 0, 0);
    float *picture = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float));
    for (int k = 0; k < COUNT_OF(shapes) && !lab.time; k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long n = (long long)width * height;
        if (lab_skip(&lab, n))
            continue;
        make_picture(picture, width, height, lab.seed);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, picture, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, width);
        lab_int(&c, height);
        lab_float(&c, gain);
        if (lab_run(&lab, &c))
            break;
        for (long long i = 0; i < n; i++)
            want[i] = adjusted(picture, gain, i);
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(&lab, what, got, want, n, width, TOLERANCE, why))
            hint_last_column(&lab, got, want, width, height);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: the output is poisoned before each, so that every run must write all of it. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    int width = shapes[last][0], height = shapes[last][1];
    size_t bytes = n_max * sizeof(float);
    make_picture(picture, width, height, lab.seed);
    float *in = (float *)lab_shared(&lab, bytes), *out = (float *)lab_shared(&lab, bytes);
    CUDA_CHECK(cudaMemcpy(in, picture, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, width);
    lab_int(&c, height);
    lab_float(&c, gain);
    static struct lab_sample s;
    s.output = out, s.size = 4, s.n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        lab_poison(out, bytes);
        for (int y = clock.run + 1; y < height; y += height / 8)  /* the last pixel of a few rows, every run */
            lab_sample_add(&s, (long long)y * width + width - 1);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_float(&s, k);
            want[k] = adjusted(picture, gain, s.index[k]);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled pixels", clock.run + 1, s.count);
        if (lab_check_floats(&lab, what, got, want, s.count, 0, TOLERANCE, why))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d pixels drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(picture), free(got), free(want);
    return lab_end(&lab);
}
