/* ch4_equalize's judge: the student's histogram, lookup table and picture, each compared exactly with
 * the CPU's, in that order (the first that differs is where to look), then the three kernels timed
 * together against the copy bandwidth. Every call's picture is drawn afresh (lab_fresh): the course's
 * test picture (common/image.h), lifted by a few levels and given a noise, with one pixel in 4096 of any
 * of the 256 levels: still dark and low-contrast, but any level may be there, and no file can know it in
 * advance.
 * Before each timed run the judge draws a whole new picture on the GPU and counts its histogram there
 * with a kernel of its own, makes the table from it on the CPU, and poisons the three outputs (bins
 * arrives holding garbage, as the statement says); it checks every bin and every entry of the table, and
 * a sample of the picture whose levels it makes again on the CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/image.h"
#include "lab.h"

#define LEVELS 256  /* the statement's */

enum { LIFT_STREAM = 1, PIXEL_STREAM = 2 };

/* ==== The picture ==== */

/* Pixel i of a call's picture, from the test picture's level there (base): lifted by the call's lift
 * (lift_of), with a noise of 0 to 3 levels (its shadows stay below about level 50 of 255); one pixel in
 * 4096 is any of the 256 levels instead, so that the darkest and the brightest may be there, and the
 * darkest present is not always the picture's own. Integers only: the same on the CPU and the GPU. */
static inline LAB_HOST_DEVICE unsigned char picture_level(unsigned char base, int lift, unsigned long long seed,
                                                          unsigned long long i)
{
    unsigned long long r = lab_bits(seed, PIXEL_STREAM, i);
    if ((r & 4095) == 0)
        return (unsigned char)(r >> 12);  /* any level */
    int level = base + lift + (int)((r >> 20) % 4);
    return (unsigned char)(level < 255 ? level : 255);
}

/* The judge's picture on the GPU, from the test picture's levels (base, the judge's own) and `seed`, and
 * where bins is given its histogram: a timed run's input and the start of its reference (the table
 * follows on the CPU from the 256 counts). Each block counts in shared memory, LEVELS threads a block. */
__global__ void make_picture(const unsigned char *base, unsigned char *picture, long long pixels, int lift,
                             unsigned long long seed, unsigned *bins)
{
    __shared__ unsigned counts[LEVELS];
    counts[threadIdx.x] = 0;
    __syncthreads();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < pixels;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned char level = picture_level(base[i], lift, seed, i);
        picture[i] = level;
        atomicAdd(&counts[level], 1u);
    }
    __syncthreads();
    if (bins && counts[threadIdx.x])
        atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}

/* A call's lift, 0 to 7 levels: one draw from its seed. */
static int lift_of(unsigned long long seed)
{
    return (int)(lab_bits(seed, LIFT_STREAM, 0) % 8);
}

/* A picture of `pixels` from `seed` into dev_picture, and with want its histogram (dev_bins: the judge's). */
static void draw_picture(const unsigned char *dev_base, unsigned char *dev_picture, long long pixels,
                         unsigned long long seed, unsigned *dev_bins, unsigned *want)
{
    long long blocks = ceil_div(pixels, LEVELS);
    if (want)
        CUDA_CHECK(cudaMemset(dev_bins, 0, LEVELS * sizeof(unsigned)));
    make_picture<<<(int)(blocks < 4096 ? blocks : 4096), LEVELS>>>(dev_base, dev_picture, pixels, lift_of(seed),
                                                                   seed, want ? dev_bins : NULL);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (want)
        CUDA_CHECK(cudaMemcpy(want, dev_bins, LEVELS * sizeof(unsigned), cudaMemcpyDeviceToHost));
}

/* ==== The CPU's equalisation ==== */

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

/* A lookup table whose every wrong entry is one level off: the rounding (the statement's common mistake). */
static void hint_rounding(struct lab *lab, const unsigned *got, const unsigned *want)
{
    for (int v = 0; v < LEVELS; v++)
        if (got[v] + 1 < want[v] || want[v] + 1 < got[v])
            return;
    lab_hint(lab, "every wrong entry of the lookup table is one level off: the rounding. Round half up in integers, "
                  "(a x 255 + b / 2) / b in 64 bits; a division that truncates, or float arithmetic (24 bits for a "
                  "x 255), can miss by one");
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
    /* The test picture's levels at each shape: on the host (common/image.h), and the judge's own copy on the
     * GPU, from which every call's picture is drawn there. */
    unsigned char *base = (unsigned char *)host_alloc(n_max);
    unsigned char *dev_base = (unsigned char *)lab_device_alloc(n_max);
    unsigned bins[LEVELS], got_bins[LEVELS], lut[LEVELS], got_lut[LEVELS];
    lab_big_sizes(&lab, 2);  /* 1023 x 1025 and 7681 x 4321 */
    if (!lab.time) {
        unsigned char *picture = (unsigned char *)host_alloc(n_max), *got = (unsigned char *)host_alloc(n_max);
        unsigned *want = (unsigned *)host_alloc(n_max * sizeof(unsigned));
        unsigned *got_wide = (unsigned *)host_alloc(n_max * sizeof(unsigned));
        unsigned char *dev_picture = (unsigned char *)lab_device_alloc(n_max);
        unsigned char lut_bytes[LEVELS];
        for (int k = 0; k < COUNT_OF(shapes); k++) {
            int width = shapes[k][0], height = shapes[k][1];
            long long pixels = (long long)width * height;
            if (lab_skip(&lab, pixels))
                continue;
            /* The picture made on the GPU and read back: the call sends it, and the CPU equalises it. */
            test_picture_bytes(base, width, height);
            CUDA_CHECK(cudaMemcpy(dev_base, base, pixels, cudaMemcpyHostToDevice));
            draw_picture(dev_base, dev_picture, pixels, lab_fresh(&lab), NULL, NULL);
            CUDA_CHECK(cudaMemcpy(picture, dev_picture, pixels, cudaMemcpyDeviceToHost));
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
            if (lab_check_uints(&lab, what, got_lut, lut, LEVELS, 0)) {
                hint_rounding(&lab, got_lut, lut);
                continue;
            }
            snprintf(what, sizeof what, "%d x %d, 3. picture", width, height);
            lab_check_uints(&lab, what, got_wide, want, pixels, width);
        }
        CUDA_CHECK(cudaFree(dev_picture));
        free(picture), free(got), free(want), free(got_wide);
    }
    if (!lab.time || lab.failures) {
        free(base);
        return lab_end(&lab);
    }

    /* The timed runs: a whole new picture before each, its histogram counted by the judge's kernel and its
     * table made from that; the three outputs poisoned before each run; after it, all of bins and lut and
     * a sample of the picture, compared in that order. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    int width = shapes[last][0], height = shapes[last][1];
    test_picture_bytes(base, width, height);
    CUDA_CHECK(cudaMemcpy(dev_base, base, n_max, cudaMemcpyHostToDevice));
    unsigned char *dev_in = (unsigned char *)lab_shared(&lab, n_max);
    unsigned char *dev_out = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *dev_bins = (unsigned *)lab_shared(&lab, LEVELS * sizeof(unsigned));
    unsigned char *dev_lut = (unsigned char *)lab_shared(&lab, LEVELS);
    unsigned *dev_want = (unsigned *)lab_device_alloc(LEVELS * sizeof(unsigned));
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
    static unsigned got_pixels[LAB_SAMPLES], want_pixels[LAB_SAMPLES];
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long seed = lab_fresh(&lab);
        draw_picture(dev_base, dev_in, n_max, seed, dev_want, bins);  /* all of it: nothing kept in it survives */
        lut_of(bins, n_max, lut);
        lab_poison(dev_bins, LEVELS * sizeof(unsigned));
        lab_poison(dev_lut, LEVELS);
        lab_poison(dev_out, n_max);
        for (int k = 0; k < 3; k++)
            lab_sample_draw(&lab, &s[k]);  /* all of bins and lut; a sample of the picture */
        if (lab_timed_call(&lab, &clock, &c, s, 3))
            break;
        for (int v = 0; v < LEVELS; v++) {
            got_bins[v] = lab_sample_uint(&s[0], v);
            got_lut[v] = lab_sample_uint(&s[1], v);
        }
        for (int k = 0; k < s[2].count; k++) {
            long long i = s[2].index[k];
            got_pixels[k] = lab_sample_uint(&s[2], k);
            want_pixels[k] = lut[picture_level(base[i], lift_of(seed), seed, (unsigned long long)i)];
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, 1. histogram", clock.run + 1);
        if (lab_check_uints(&lab, what, got_bins, bins, LEVELS, 0))
            break;
        snprintf(what, sizeof what, "timed run %d, 2. lookup table", clock.run + 1);
        if (lab_check_uints(&lab, what, got_lut, lut, LEVELS, 0))
            break;
        snprintf(what, sizeof what, "timed run %d, 3. picture, %d sampled pixels", clock.run + 1, s[2].count);
        if (lab_check_sample_uints(&lab, what, &s[2], got_pixels, want_pixels, width))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's histogram and table were right, and its picture on %d pixels drawn afresh each "
               "run, from a picture drawn afresh before it\n", s[2].count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 3.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(base);
    return lab_end(&lab);
}
