/* matmul.h: the judge of the two matrix-product labs, ch5_tiled and ch5_register_tile, which differ only
 * in their title (labs/judge/ch5_tiled.cu and ch5_register_tile.cu include it and call matmul_judge). It
 * is product.h's judge with fp32's inputs and bound, as ch5_cublas's: A and B have full mantissas and
 * either sign, and an element may be off by fp32's rounding of its sums, which TF32's rounding of the
 * inputs exceeds ten times over: a product made on the tensor cores, however the file reaches them, is a
 * wrong result. Products of awkward shapes are checked element by element against the CPU, in double;
 * the 4096 x 4096 x 4096 product on 4,096 elements drawn from its seed, and every element for the poison.
 * Then it is timed against cuBLAS's SGEMM (fp32) on inputs of the same kind, each run's A and B written
 * afresh on the GPU and a fresh sample checked (product.h: product_timed). */
#include <math.h>
#include <stdio.h>

#include "product.h"

/* A wrong product that is, to fp32's rounding, the product of k rounded down to a multiple of a tile's depth
 * (8 to 64): the k-tail left out, a tile loop that stops at the last whole tile. Or one that is right to
 * TF32's rounding: the tensor cores, or inputs rounded to TF32. */
static void matmul_hint(struct lab *lab, const float *got, const float *want, const double *scale, const float *A,
                        const float *B, int m, int n, int k)
{
    for (int depth = 8; depth <= 64; depth *= 2) {
        int terms = k - k % depth, tail = 1;
        if (terms == k || terms == 0)
            continue;
        for (long long e = 0; e < (long long)m * n && tail; e++)
            tail = fabs((double)got[e] - product_element(A, B, n, k, terms, e / n, e % n, NULL)) <=
                   product_fp32_tolerance(terms) * scale[e];
        if (tail) {
            lab_hint(lab, "C holds the sums of only the first %d of the k = %d products: the loop over the tiles "
                          "along k stops at the last whole tile. Count the tiles with a ceiling division, and load "
                          "zeros past k in the last one (the k-tail)", terms, k);
            return;
        }
    }
    if (product_within(got, want, scale, (long long)m * n, product_tf32_tolerance(k)))
        lab_hint(lab, "C is right to within TF32's rounding, not fp32's: are the products made on the tensor cores "
                      "(mma, wmma) or the inputs rounded to TF32? The lab is fp32 on the CUDA cores");
}

static int matmul_judge(int argc, char **argv, const char *title)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    const struct product_values values = product_fp32_values;
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
    size_t most = lab.time ? 1 : (size_t)shapes[last][0] * shapes[last][2];  /* the largest A, B or C */
    float *A = (float *)host_alloc(most * sizeof(float)), *B = (float *)host_alloc(most * sizeof(float));
    float *got = (float *)host_alloc(most * sizeof(float)), *want = (float *)host_alloc(most * sizeof(float));
    double *scale = (double *)host_alloc(most * sizeof(double));
    for (int s = 0; s < COUNT_OF(shapes) && !lab.time; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        if (lab_skip(&lab, elements[s]))
            continue;
        unsigned long long seed = lab_fresh(&lab);  /* this call's A and B, and where a large C is sampled */
        product_fill_host(A, (long long)m * k, values, seed, PRODUCT_A);
        product_fill_host(B, (long long)k * n, values, seed, PRODUCT_B);
        struct lab_call c;
        product_call(&c, A, B, got, m, n, k);
        if (lab_run(&lab, &c))
            break;
        char why[128];
        snprintf(why, sizeof why, "%d products of either sign added in fp32, the roundings of the sums; TF32's "
                 "inputs are 10 times further off", k);
        int sampled;
        if (product_check(&lab, values, got, want, scale, A, B, m, n, k, seed, product_fp32_tolerance(k), why,
                          &sampled) && !sampled)
            matmul_hint(&lab, got, want, scale, A, B, m, n, k);
    }
    free(A), free(B), free(got), free(want), free(scale);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    char why[128];
    snprintf(why, sizeof why, "%d products of either sign added in fp32, the roundings of the sums; TF32's inputs "
             "are 10 times further off", k);
    product_timed(&lab, values, m, n, k, reps, product_fp32_tolerance(k), why, 0);
    return lab_end(&lab);
}
