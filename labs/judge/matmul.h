/* matmul.h: the judge of the two matrix-product labs, ch5_tiled and ch5_register_tile, which differ only
 * in their title and their hand-out target (labs/judge/ch5_tiled.cu and ch5_register_tile.cu include it
 * and call matmul_judge). A and B come from the seed. Products of awkward shapes are checked element by
 * element against the CPU, in double. The 4096 x 4096 x 4096 product, 69 billion multiply-adds, is
 * checked on 4,096 elements drawn from the seed, one in each 4,096-element stretch of C (so one in every
 * row, each at its own column), and every element of it for the poison C was filled with (a thread that
 * never wrote). Then it is timed against cuBLAS's SGEMM on the same GPU: before each run A and B are
 * written again from the judge's copies (a run that wrote them could leave its answers there for the
 * next) and C is poisoned; after it, 1,024 elements drawn afresh are checked against the CPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libraries.h"

/* A product of more multiply-adds than this is checked on a sample: the CPU's reference for every
 * element would take minutes. */
#define MATMUL_EVERY_ELEMENT_UP_TO 1000000000LL
#define MATMUL_SAMPLED 4096  /* the elements of C checked when it is sampled */
static_assert(MATMUL_SAMPLED >= (int)LAB_SAMPLES, "the sample arrays below hold a timed run's sample too");

/* Element (row, col) of A B, in double: A is m x k, B k x n, both row-major. */
static double cpu_element(const float *A, const float *B, int n, int k, long long row, long long col)
{
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += (double)A[row * k + i] * B[(long long)i * n + col];
    return sum;
}

static float sample_got[MATMUL_SAMPLED], sample_want[MATMUL_SAMPLED];
static long long sample_index[MATMUL_SAMPLED];

/* A product too large to check whole: no element may still hold the poison, and the sample must match
 * the CPU. 1: it failed, and said why. */
static int check_sampled(struct lab *lab, const float *got, const float *A, const float *B, int m, int n, int k,
                         double tolerance, const char *why)
{
    long long count = (long long)m * n, unwritten = 0, first = -1;
    for (long long e = 0; e < count; e++)
        if (isnan(got[e]) && !unwritten++)
            first = e;
    if (unwritten) {
        printf("  %d x %d x %d: FAIL, %lld of %lld elements still hold the poison C was filled with; first: element "
               "(row %lld, column %lld)\n", m, n, k, unwritten, count, first / n, first % n);
        lab_hint(lab, "some elements of C were never written: does the grid cover every row and every column of C, "
                      "and does each thread write every element it owns?");
        lab->failures++;
        return 1;
    }
    /* One element in each of `checked` equal stretches of C, row after row, at a place drawn from the
     * seed: spread over the rows and over the columns. */
    int checked = count < MATMUL_SAMPLED ? (int)count : MATMUL_SAMPLED;
    for (int j = 0; j < checked; j++) {
        long long start = count * j / checked, next = count * (j + 1) / checked;
        long long e = start + (long long)(lab_bits(lab->seed, 3, j) % (unsigned long long)(next - start));
        sample_index[j] = e;
        sample_got[j] = got[e];
        sample_want[j] = (float)cpu_element(A, B, n, k, e / n, e % n);
    }
    char what[96];
    snprintf(what, sizeof what, "%d x %d x %d (every element written; %d sampled)", m, n, k, checked);
    return lab_check_floats_at(lab, what, sample_got, sample_want, checked, sample_index, n, tolerance, why);
}

static int matmul_judge(int argc, char **argv, const char *title)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    /* m, n, k: one element; around a warp and a tile; a k of one tile and a bit; tall, wide and thin;
     * then the timed square product. */
    const int shapes[][3] = {{1, 1, 1}, {31, 33, 32}, {33, 31, 17}, {64, 64, 1025}, {1025, 33, 7},
                             {7, 1025, 129}, {257, 255, 1000}, {4096, 4096, 4096}};
    const int last = COUNT_OF(shapes) - 1;
    size_t most = (size_t)shapes[last][0] * shapes[last][2];  /* the floats of the largest A, B or C */
    float *A = (float *)host_alloc(most * sizeof(float)), *B = (float *)host_alloc(most * sizeof(float));
    float *got = (float *)host_alloc(most * sizeof(float)), *want = (float *)host_alloc(most * sizeof(float));
    for (size_t i = 0; i < most; i++) {
        A[i] = lab_uniform(lab.seed, 1, i);
        B[i] = lab_uniform(lab.seed, 2, i);
    }
    for (int s = 0; s < COUNT_OF(shapes) && !lab.time; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        long long elements = (long long)m * n > (long long)m * k ? (long long)m * n : (long long)m * k;
        if (lab_skip(&lab, elements))
            continue;
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, A, (size_t)m * k * sizeof(float));
        lab_in(&c, B, (size_t)k * n * sizeof(float));
        lab_out(&c, NULL, got, (size_t)m * n * sizeof(float));
        lab_int(&c, m);
        lab_int(&c, n);
        lab_int(&c, k);
        if (lab_run(&lab, &c))
            break;
        /* Positive terms: k additions and the product's rounding, each relative 2^-24 at most. */
        double tolerance = (k + 1) * FLOAT_ROUNDING;
        char what[64], why[96];
        snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
        if ((long long)m * n * k > MATMUL_EVERY_ELEMENT_UP_TO) {
            check_sampled(&lab, got, A, B, m, n, k, tolerance, why);
            continue;
        }
        for (long long e = 0; e < (long long)m * n; e++)
            want[e] = (float)cpu_element(A, B, n, k, e / n, e % n);
        snprintf(what, sizeof what, "%d x %d x %d", m, n, k);
        lab_check_floats(&lab, what, got, want, (long long)m * n, n, tolerance, why);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    double flops = 2.0 * m * n * k, tolerance = (k + 1) * FLOAT_ROUNDING;
    char why[96];
    snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
    struct stats cublas = cublas_sgemm_time(m, n, k, reps);
    print_flops("cublas", "cuBLAS SGEMM (fp32)", cublas, flops, lab.dev.peak_fp32_gflops, "of the FP32 peak");

    /* The timed runs: A, B and C in the runner's memory; A and B also in the judge's, to write them
     * again before each run. */
    size_t a_bytes = (size_t)m * k * sizeof(float), b_bytes = (size_t)k * n * sizeof(float);
    size_t c_bytes = (size_t)m * n * sizeof(float);
    float *a0 = (float *)lab_device_alloc(a_bytes), *b0 = (float *)lab_device_alloc(b_bytes);
    CUDA_CHECK(cudaMemcpy(a0, A, a_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b0, B, b_bytes, cudaMemcpyHostToDevice));
    float *dA = (float *)lab_shared(&lab, a_bytes), *dB = (float *)lab_shared(&lab, b_bytes);
    float *dC = (float *)lab_shared(&lab, c_bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dA);
    lab_use(&c, dB);
    lab_use(&c, dC);
    lab_int(&c, m);
    lab_int(&c, n);
    lab_int(&c, k);
    static struct lab_sample s;
    s.output = dC, s.size = 4, s.n = (long long)m * n;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        CUDA_CHECK(cudaMemcpy(dA, a0, a_bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(dB, b0, b_bytes, cudaMemcpyDeviceToDevice));
        lab_poison(dC, c_bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        /* The CPU's reference for the sample only: k multiply-adds each. */
        for (int j = 0; j < s.count; j++) {
            sample_got[j] = lab_sample_float(&s, j);
            sample_want[j] = (float)cpu_element(A, B, n, k, s.index[j] / n, s.index[j] % n);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, sample_got, sample_want, n, tolerance, why))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), flops, "GFLOP/s", flops / (cublas.median * 1e-3) / 1e9,
                   "of cuBLAS's speed");
    }
    CUDA_CHECK(cudaFree(a0));
    CUDA_CHECK(cudaFree(b0));
    free(A), free(B), free(got), free(want);
    return lab_end(&lab);
}
