/* ch4_equalize's harness: the student's histogram, lookup table and picture, each compared exactly
 * with the CPU's (the first that differs is where to look), then the three kernels timed together
 * against the copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/image.h"
#include "lab.h"
#include LAB_FILE

struct problem { unsigned char *in, *out, *lut; unsigned *bins; int width, height, sms; };

static void problem_start(struct problem *p, const unsigned char *picture, int width, int height, int sms)
{
    size_t pixels = (size_t)width * height;
    p->width = width, p->height = height, p->sms = sms;
    p->in = (unsigned char *)lab_device_alloc(pixels);
    p->out = (unsigned char *)lab_device_alloc(pixels);
    p->lut = (unsigned char *)lab_device_alloc(LEVELS);
    p->bins = (unsigned *)lab_device_alloc(LEVELS * sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(p->in, picture, pixels, cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_equalize(p->in, p->out, p->width, p->height, p->bins, p->lut, p->sms);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->in));
    CUDA_CHECK(cudaFree(p->out));
    CUDA_CHECK(cudaFree(p->lut));
    CUDA_CHECK(cudaFree(p->bins));
}

/* The CPU's equalisation, as the statement defines it. */
static void equalize_cpu(const unsigned char *in, long long pixels, unsigned *bins, unsigned *lut, unsigned *out)
{
    memset(bins, 0, LEVELS * sizeof *bins);
    for (long long i = 0; i < pixels; i++)
        bins[in[i]]++;
    unsigned long long cdf_min = 0, cdf = 0;
    for (int v = 0; v < LEVELS && cdf_min == 0; v++)
        cdf_min = bins[v];  /* the count of the darkest level present */
    unsigned long long range = pixels - cdf_min;
    for (int v = 0; v < LEVELS; v++) {
        cdf += bins[v];
        unsigned long long above = cdf < cdf_min ? 0 : cdf - cdf_min;
        lut[v] = range == 0 ? v : (unsigned)((above * 255 + range / 2) / range);
    }
    for (long long i = 0; i < pixels; i++)
        out[i] = lut[in[i]];
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_equalize: histogram, scan, lookup table, 2D kernel", &reps);
    const int shapes[][2] = {{1, 1}, {31, 33}, {1025, 7}, {7, 1025}, {1023, 1025}, {7681, 4321}};
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
    unsigned char *picture = (unsigned char *)host_alloc(n_max), *got = (unsigned char *)host_alloc(n_max);
    unsigned *want = (unsigned *)host_alloc(n_max * sizeof(unsigned)), *got_wide = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned bins[LEVELS], got_bins[LEVELS], lut[LEVELS], got_lut[LEVELS];
    unsigned char lut_bytes[LEVELS];
    struct problem p;
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long pixels = (long long)width * height;
        if (lab_skip(&lab, pixels))
            continue;
        test_picture_bytes(picture, width, height);
        equalize_cpu(picture, pixels, bins, lut, want);
        problem_start(&p, picture, width, height, lab.dev.sms);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got_bins, p.bins, sizeof got_bins, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(lut_bytes, p.lut, LEVELS, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(got, p.out, pixels, cudaMemcpyDeviceToHost));
        problem_end(&p);
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
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    test_picture_bytes(picture, shapes[last][0], shapes[last][1]);
    problem_start(&p, picture, shapes[last][0], shapes[last][1], lab.dev.sms);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 3.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 25);
    problem_end(&p);
    free(picture), free(got), free(want), free(got_wide);
    return lab_end(&lab);
}
