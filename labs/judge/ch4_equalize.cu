/* ch4_equalize's judge: the student's histogram, lookup table and picture, each compared exactly with
 * the CPU's, in that order (the first that differs is where to look), then the three kernels timed
 * together against the copy bandwidth. The picture is the course's test picture (common/image.h),
 * lifted by a few levels and given a noise, both drawn from the seed: still dark and low-contrast, but
 * no file can know it in advance.
 * Before each timed run the judge poisons the three outputs (bins arrives holding garbage, as the
 * statement says) and changes 64 pixels, at places and to levels drawn from the seed and the run's
 * number; it checks every bin and every entry of the table against the CPU's, made again from the
 * changed picture, and a sample of the picture that holds the changed pixels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/image.h"
#include "lab.h"

#define LEVELS 256  /* the statement's */

enum { CHANGES = 64 };  /* pixels changed before each timed run (a sample adds at most 64 places) */

/* ==== The picture and the CPU's equalisation ==== */

/* The test picture of width x height, lifted by 0 to 7 levels (one draw from the seed) and given a
 * noise of 0 to 3 levels a pixel: its shadows stay below about level 50 of 255. */
static void make_picture(unsigned long long seed, unsigned char *picture, int width, int height)
{
    test_picture_bytes(picture, width, height);
    int lift = (int)(lab_bits(seed, 1, 0) % 8);
    long long pixels = (long long)width * height;
    for (long long i = 0; i < pixels; i++) {
        int level = picture[i] + lift + (int)(lab_bits(seed, 2, (unsigned long long)i) % 4);
        picture[i] = (unsigned char)(level < 255 ? level : 255);
    }
}

/* The lookup table, as the statement defines it, from the histogram. */
static void lut_of(const unsigned *bins, long long pixels, unsigned *lut)
{
    unsigned long long cdf_min = 0, cdf = 0;
    for (int v = 0; v < LEVELS && cdf_min == 0; v++)
        cdf_min = bins[v];  /* the count of the darkest level present */
    unsigned long long range = pixels - cdf_min;
    for (int v = 0; v < LEVELS; v++) {
        cdf += bins[v];
        unsigned long long above = cdf < cdf_min ? 0 : cdf - cdf_min;
        lut[v] = range == 0 ? v : (unsigned)((above * 255 + range / 2) / range);
    }
}

/* The CPU's equalisation: the histogram, the table, the picture. */
static void equalize_cpu(const unsigned char *in, long long pixels, unsigned *bins, unsigned *lut, unsigned *out)
{
    memset(bins, 0, LEVELS * sizeof *bins);
    for (long long i = 0; i < pixels; i++)
        bins[in[i]]++;
    lut_of(bins, pixels, lut);
    for (long long i = 0; i < pixels; i++)
        out[i] = lut[in[i]];
}

/* Before timed run `run` (-1: the warm-up): CHANGES pixels get new levels, in the judge's copy and on
 * the GPU, and the histogram follows them (in order: a place drawn twice keeps its last level). Each
 * place joins the picture's next sample. */
static void change_pixels(const struct lab *lab, int run, unsigned char *picture, unsigned char *dev_picture,
                          long long pixels, unsigned *bins, struct lab_sample *s)
{
    for (int k = 0; k < CHANGES; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGES + k;
        long long i = (long long)(lab_bits(lab->seed, 3, draw) % (unsigned long long)pixels);
        unsigned char level = (unsigned char)lab_bits(lab->seed, 4, draw);
        bins[picture[i]]--;
        picture[i] = level;
        bins[level]++;
        CUDA_CHECK(cudaMemcpy(dev_picture + i, &level, 1, cudaMemcpyHostToDevice));
        lab_sample_add(s, i);
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_equalize: histogram, scan, lookup table, 2D kernel", &reps);
    /* 1 x 1 is a picture of one level (lut[v] = v); the others are not whole blocks in x, in y or both. */
    const int shapes[][2] = {{1, 1}, {31, 33}, {1025, 7}, {7, 1025}, {1023, 1025}, {7681, 4321}};
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
    unsigned char *picture = (unsigned char *)host_alloc(n_max), *got = (unsigned char *)host_alloc(n_max);
    unsigned *want = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *got_wide = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned bins[LEVELS], got_bins[LEVELS], lut[LEVELS], got_lut[LEVELS];
    unsigned char lut_bytes[LEVELS];
    for (int k = 0; k < COUNT_OF(shapes) && !lab.time; k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long pixels = (long long)width * height;
        if (lab_skip(&lab, pixels))
            continue;
        make_picture(lab.seed, picture, width, height);
        equalize_cpu(picture, pixels, bins, lut, want);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, picture, pixels);
        lab_out(&c, NULL, got, pixels);
        lab_int(&c, width);
        lab_int(&c, height);
        lab_out(&c, NULL, got_bins, sizeof got_bins);
        lab_out(&c, NULL, lut_bytes, LEVELS);
        lab_int(&c, lab.dev.sms);
        if (lab_run(&lab, &c))
            break;
        for (int v = 0; v < LEVELS; v++)
            got_lut[v] = lut_bytes[v];
        for (long long i = 0; i < pixels; i++)
            got_wide[i] = got[i];
        char what[64];
        snprintf(what, sizeof what, "%d x %d, 1. histogram", width, height);
        if (lab_check_uints(&lab, what, got_bins, bins, LEVELS, 0))
            continue;  /* what follows is built on it */
        snprintf(what, sizeof what, "%d x %d, 2. lookup table", width, height);
        if (lab_check_uints(&lab, what, got_lut, lut, LEVELS, 0))
            continue;
        snprintf(what, sizeof what, "%d x %d, 3. picture", width, height);
        lab_check_uints(&lab, what, got_wide, want, pixels, width);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: the three outputs poisoned and 64 pixels changed before each; after it, all of
     * bins and lut and a sample of the picture, compared in that order. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    int width = shapes[last][0], height = shapes[last][1];
    make_picture(lab.seed, picture, width, height);
    memset(bins, 0, sizeof bins);
    for (long long i = 0; i < n_max; i++)
        bins[picture[i]]++;
    unsigned char *dev_in = (unsigned char *)lab_shared(&lab, n_max);
    unsigned char *dev_out = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *dev_bins = (unsigned *)lab_shared(&lab, LEVELS * sizeof(unsigned));
    unsigned char *dev_lut = (unsigned char *)lab_shared(&lab, LEVELS);
    CUDA_CHECK(cudaMemcpy(dev_in, picture, n_max, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_in);
    lab_use(&c, dev_out);
    lab_int(&c, width);
    lab_int(&c, height);
    lab_use(&c, dev_bins);
    lab_use(&c, dev_lut);
    lab_int(&c, lab.dev.sms);
    static struct lab_sample s[3];  /* bins, lut, the picture */
    s[0].output = dev_bins, s[0].size = 4, s[0].n = LEVELS;
    s[1].output = dev_lut, s[1].size = 1, s[1].n = LEVELS;
    s[2].output = dev_out, s[2].size = 1, s[2].n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        change_pixels(&lab, clock.run, picture, dev_in, n_max, bins, &s[2]);
        lut_of(bins, n_max, lut);
        lab_poison(dev_bins, LEVELS * sizeof(unsigned));
        lab_poison(dev_lut, LEVELS);
        lab_poison(dev_out, n_max);
        for (int k = 0; k < 3; k++)
            lab_sample_draw(&lab, &s[k]);  /* all of bins and lut; the picture's sample and its changed pixels */
        if (lab_timed_call(&lab, &clock, &c, s, 3))
            break;
        for (int v = 0; v < LEVELS; v++) {
            got_bins[v] = lab_sample_uint(&s[0], v);
            got_lut[v] = lab_sample_uint(&s[1], v);
        }
        for (int k = 0; k < s[2].count; k++) {
            got_wide[k] = lab_sample_uint(&s[2], k);
            want[k] = lut[picture[s[2].index[k]]];
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, 1. histogram", clock.run + 1);
        if (lab_check_uints(&lab, what, got_bins, bins, LEVELS, 0))
            break;
        snprintf(what, sizeof what, "timed run %d, 2. lookup table", clock.run + 1);
        if (lab_check_uints(&lab, what, got_lut, lut, LEVELS, 0))
            break;
        snprintf(what, sizeof what, "timed run %d, 3. picture, %d sampled pixels", clock.run + 1, s[2].count);
        if (lab_check_sample_uints(&lab, what, &s[2], got_wide, want, width))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's histogram and table were right, and its picture on %d pixels drawn afresh each "
               "run (the %d changed among them)\n", s[2].count, CHANGES);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 3.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(picture), free(got), free(want), free(got_wide);
    return lab_end(&lab);
}
