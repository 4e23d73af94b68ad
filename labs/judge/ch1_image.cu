/* ch1_image's judge: the student's mirror on pictures of awkward shapes (1 x 1, one row, one column,
 * sides of 31, 33, 1025), then timed on an 8191 x 4097 picture against the copy bandwidth. Every pixel
 * of every call's picture, timed runs included, is drawn afresh (random.h, from lab_fresh), over the 0..1
 * of the course's pictures: no file can know it in advance, and a pixel read from the wrong place shows
 * anywhere in the picture. Before each timed run the picture is drawn again on the GPU and the output is
 * poisoned; a sample of it, drawn afresh each run, is checked after. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* The pixels' range, the course's pictures' (stream 1). */
#define LOW 0.0f
#define HIGH 1.0f

/* Pixel i of a call's picture, on the CPU as fill.cu's lab_fill_floats makes it on the GPU. */
static float pixel(unsigned long long seed, long long i)
{
    return lab_value(seed, 1, i, LOW, HIGH);
}

/* Where pixel i of the mirrored picture comes from: the same row, counted from the other side. */
static long long mirrored(int width, long long i)
{
    long long x = i % width;
    return i - x + width - 1 - x;
}

static const int shapes[][2] = {{1, 1}, {31, 33}, {33, 31}, {1025, 1}, {1, 1025}, {1025, 7}, {1023, 1025},
                                {8191, 4097}};

/* Every shape, each with a picture of its own, the output checked whole. */
static void check_shapes(struct lab *lab)
{
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
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
        for (long long i = 0; i < n; i++)
            picture[i] = pixel(s, i);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, picture, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, width);
        lab_int(&c, height);
        if (lab_run(lab, &c))
            break;
        for (long long i = 0; i < n; i++)
            want[i] = picture[mirrored(width, i)];
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(lab, what, got, want, n, width, 0, "a copy: exact") && got[0] == picture[0] && width > 1)
            lab_hint(lab, "the first pixel is the input's first: the picture was copied, not mirrored");
    }
    free(picture), free(got), free(want);
}

/* The timed runs: before each, the picture is drawn afresh on the GPU (lab_fill_floats) and the output
 * is poisoned, so that every run must read all of the one and write all of the other; a sampled pixel's
 * reference is its source pixel, made again here from the run's seed. */
static void time_runs(struct lab *lab, int reps)
{
    const int last = COUNT_OF(shapes) - 1, width = shapes[last][0], height = shapes[last][1];
    long long n_max = (long long)width * height;
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *in = (float *)lab_shared(lab, bytes), *out = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, width);
    lab_int(&c, height);
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
            sample_want[k] = pixel(s, mirrored(width, sample.index[k]));
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled pixels", clock.run + 1, sample.count);
        if (lab_check_sample_floats(lab, what, &sample, sample_got, sample_want, width, 0, "a copy: exact"))
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
    lab_start(&lab, argc, argv, "Lab ch1_image: a picture mirrored, one thread per pixel in a 2D grid", &reps);
    if (!lab.time)
        check_shapes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
