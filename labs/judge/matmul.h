/* matmul.h: the judge of the two matrix-product labs, ch5_tiled and ch5_register_tile, which differ only
 * in their title and their hand-out target (labs/judge/ch5_tiled.cu and ch5_register_tile.cu include it
 * and call matmul_judge). Every call's A and B come from a seed of their own (lab_fresh), in [0, 1):
 * every product is positive, so a sum's rounding is bounded relative to the sum itself. Products of
 * awkward shapes are checked element by element against the CPU, in double. The 4096 x 4096 x 4096
 * product, 69 billion multiply-adds, is checked on 4,096 elements drawn from its seed, one in each
 * 4,096-element stretch of C (so one in every row, each at its own column), and every element of it for
 * the poison C was filled with (a thread that never wrote). Then it is timed against cuBLAS's SGEMM on the
 * same GPU: before each run, the warm-up too, the judge writes A and B afresh on the GPU from a new seed
 * (an answer left in them, or a product kept from the run before, is worth nothing) and poisons C; after
 * it, 1,024 elements drawn afresh are checked against their dot products remade on the CPU from that
 * run's seed (k terms each: no copy of A or B on the host). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libraries.h"

/* A product of more multiply-adds than this is checked on a sample: the CPU's reference for every
 * element would take minutes. */
#define MATMUL_EVERY_ELEMENT_UP_TO 1000000000LL
#define MATMUL_SAMPLED 4096  /* the elements of C checked when it is sampled */
static_assert(MATMUL_SAMPLED >= (int)LAB_SAMPLES, "the sample arrays below hold a timed run's sample too");
/* A's and B's values, [0, 1): positive, for the tolerance below; the statement names no range. */
#define MATMUL_LOW 0.0f
#define MATMUL_HIGH 1.0f
enum { STREAM_A = 1, STREAM_B, STREAM_PLACES };  /* a call's seed: A, B, and where a large C is sampled */

/* Element (row, col) of A B, in double: A is m x k, B k x n, both row-major. */
static double cpu_element(const float *A, const float *B, int n, int k, long long row, long long col)
{
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += (double)A[row * k + i] * B[(long long)i * n + col];
    return sum;
}

/* The same element from a timed run's seed alone: row `row` of A and column `col` of B remade as the
 * judge's fill wrote them on the GPU, the same products added in the same order. */
static double seed_element(unsigned long long seed, int n, int k, long long row, long long col)
{
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += (double)lab_value(seed, STREAM_A, row * k + i, MATMUL_LOW, MATMUL_HIGH) *
               lab_value(seed, STREAM_B, (long long)i * n + col, MATMUL_LOW, MATMUL_HIGH);
    return sum;
}

static float sample_got[MATMUL_SAMPLED], sample_want[MATMUL_SAMPLED];
static long long sample_index[MATMUL_SAMPLED];

/* A product too large to check whole: no element may still hold the poison, and the sample, placed from
 * the call's seed, must match the CPU. 1: it failed, and said why. */
static int check_sampled(struct lab *lab, const float *got, const float *A, const float *B, int m, int n, int k,
                         unsigned long long seed, double tolerance, const char *why)
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
        long long e = start + (long long)(lab_bits(seed, STREAM_PLACES, j) % (unsigned long long)(next - start));
        sample_index[j] = e;
        sample_got[j] = got[e];
        sample_want[j] = (float)cpu_element(A, B, n, k, e / n, e % n);
    }
    char what[96];
    snprintf(what, sizeof what, "%d x %d x %d (every element written; %d sampled)", m, n, k, checked);
    return lab_check_floats_at(lab, what, sample_got, sample_want, checked, sample_index, n, tolerance, why);
}

/* The floats of A (m x k) or B (k x n) from a call's seed, as lab_fill_floats writes them on the GPU. */
static void fill_matrix(float *x, long long count, unsigned long long seed, unsigned stream)
{
    for (long long i = 0; i < count; i++)
        x[i] = lab_value(seed, stream, i, MATMUL_LOW, MATMUL_HIGH);
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
    /* --small (the sanitizers) goes by the larger of C and A; the larger shapes are drawn from, the
     * 4096^3 product too (memcheck 4 s on an H200; racecheck, which would take over 4 minutes there,
     * watches the small ones only: labs/grade gives it no pick). */
    long long elements[COUNT_OF(shapes)];
    int big = 0;
    for (int s = 0; s < COUNT_OF(shapes); s++) {
        long long mn = (long long)shapes[s][0] * shapes[s][1], mk = (long long)shapes[s][0] * shapes[s][2];
        elements[s] = mn > mk ? mn : mk;
        big += elements[s] > LAB_SMALL_ELEMENTS;
    }
    lab_big_sizes(&lab, big);
    /* The correctness calls' matrices on the host, refilled for each call; the timed runs need none. */
    size_t most = lab.time ? 0 : (size_t)shapes[last][0] * shapes[last][2];  /* the largest A, B or C */
    float *A = NULL, *B = NULL, *got = NULL, *want = NULL;
    if (most) {
        A = (float *)host_alloc(most * sizeof(float)), B = (float *)host_alloc(most * sizeof(float));
        got = (float *)host_alloc(most * sizeof(float)), want = (float *)host_alloc(most * sizeof(float));
    }
    for (int s = 0; s < COUNT_OF(shapes) && !lab.time; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        if (lab_skip(&lab, elements[s]))
            continue;
        unsigned long long seed = lab_fresh(&lab);  /* this call's A and B, and where a large C is sampled */
        fill_matrix(A, (long long)m * k, seed, STREAM_A);
        fill_matrix(B, (long long)k * n, seed, STREAM_B);
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
            check_sampled(&lab, got, A, B, m, n, k, seed, tolerance, why);
            continue;
        }
        for (long long e = 0; e < (long long)m * n; e++)
            want[e] = (float)cpu_element(A, B, n, k, e / n, e % n);
        snprintf(what, sizeof what, "%d x %d x %d", m, n, k);
        lab_check_floats(&lab, what, got, want, (long long)m * n, n, tolerance, why);
    }
    free(A), free(B), free(got), free(want);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    double flops = 2.0 * m * n * k, tolerance = (k + 1) * FLOAT_ROUNDING;
    char why[96];
    snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
    struct stats cublas = cublas_sgemm_time(m, n, k, reps);
    print_flops("cublas", "cuBLAS SGEMM (fp32)", cublas, flops, lab.dev.peak_fp32_gflops, "of the FP32 peak");

    /* The timed runs: A, B and C in the runner's memory, A and B written by the judge before each run. */
    size_t c_bytes = (size_t)m * n * sizeof(float);
    float *dA = (float *)lab_shared(&lab, (size_t)m * k * sizeof(float));
    float *dB = (float *)lab_shared(&lab, (size_t)k * n * sizeof(float));
    float *dC = (float *)lab_shared(&lab, c_bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dA);
    lab_use(&c, dB);
    lab_use(&c, dC);
    lab_int(&c, m);
    lab_int(&c, n);
    lab_int(&c, k);
    static struct lab_sample sample;
    sample.output = dC, sample.size = 4, sample.n = (long long)m * n;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        /* Every element of A and B new, from this run's seed, which the runner never sees: nothing the
         * file left in them survives, and no product it made before is this run's. */
        unsigned long long seed = lab_fresh(&lab);
        lab_fill_floats(dA, (long long)m * k, seed, STREAM_A, MATMUL_LOW, MATMUL_HIGH);
        lab_fill_floats(dB, (long long)k * n, seed, STREAM_B, MATMUL_LOW, MATMUL_HIGH);
        lab_poison(dC, c_bytes);
        lab_sample_draw(&lab, &sample);
        if (lab_timed_call(&lab, &clock, &c, &sample, 1))
            break;
        /* The CPU's reference for the sample only, from the seed: k multiply-adds each. */
        for (int j = 0; j < sample.count; j++) {
            long long e = sample.index[j];
            sample_got[j] = lab_sample_float(&sample, j);
            sample_want[j] = (float)seed_element(seed, n, k, e / n, e % n);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, sample.count);
        if (lab_check_sample_floats(&lab, what, &sample, sample_got, sample_want, n, tolerance, why))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", sample.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), flops, "GFLOP/s", flops / (cublas.median * 1e-3) / 1e9,
                   "of cuBLAS's speed");
    }
    return lab_end(&lab);
}
