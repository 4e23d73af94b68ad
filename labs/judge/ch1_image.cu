/* ch1_image's judge: the student's mirror on pictures of awkward shapes (1 x 1, one row, one column,
 * sides of 31, 33, 1025), then timed on an 8191 x 4097 picture against the copy bandwidth. The picture
 * is the course's test picture with noise from the seed, so that no file can know it in advance, and a
 * pixel read from the wrong place shows even where the test picture is flat. Before each timed run the
 * output is poisoned; a sample of it, drawn afresh each run, is checked after. */
#include <stdio.h>
#include <stdlib.h>

#include "../../common/image.h"
#include "lab.h"

/* The course's test picture with a fifth of each pixel's value drawn from the seed (stream 1). */
static void make_picture(float *picture, int width, int height, unsigned long long seed)
{
    test_picture(picture, width, height);
    for (long long i = 0; i < (long long)width * height; i++)
        picture[i] = 0.8f * picture[i] + 0.2f * lab_uniform(seed, 1, i);
}

/* Pixel i of the mirrored picture: the same row, counted from the other side. */
static float mirrored(const float *picture, int width, long long i)
{
    long long x = i % width;
    return picture[i - x + width - 1 - x];
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_image: a picture mirrored, one thread per pixel in a 2D grid", &reps);
    const int shapes[][2] = {{1, 1}, {31, 33}, {33, 31}, {1025, 1}, {1, 1025}, {1025, 7}, {1023, 1025}, {8191, 4097}};
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
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
        if (lab_run(&lab, &c))
            break;
        for (long long i = 0; i < n; i++)
            want[i] = mirrored(picture, width, i);
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(&lab, what, got, want, n, width, 0, "a copy: exact") && got[0] == picture[0] && width > 1)
            lab_hint(&lab, "the first pixel is the input's first: the picture was copied, not mirrored");
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
            want[k] = mirrored(picture, width, s.index[k]);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled pixels", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, got, want, width, 0, "a copy: exact"))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d pixels drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(picture), free(got), free(want);
    return lab_end(&lab);
}
