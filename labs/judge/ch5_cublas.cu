/* ch5_cublas's judge: the student's call of cublasSgemm on row-major matrices, at shapes where each
 * usual mistake shows: non-square ones (m and n swapped, or a transposed result, differ from the right
 * product only where m != n or the result is not symmetric), k above and below n (a wrong leading
 * dimension is refused by cuBLAS, or reads past the end of a matrix, which memcheck reports), a
 * row, a column and k = 1. Checked against the CPU within fp32's rounding (product.h), then timed
 * against the judge's own cublasSgemm of the same 4096 x 4096 x 4096 product.
 * "No TF32" is checked by the tolerance: A and B have full mantissas and either sign (below), and the
 * bound allows fp32's rounding of the sums, which TF32's rounding of the inputs exceeds ten times over. */
#include "lab.h"
#include "product.h"

/* A and B: magnitudes in [1, 2) with full mantissas, each with a random sign; the bound fp32's sums keep
 * and TF32 exceeds ten times over (product.h: product_fp32_values, product_fp32_tolerance). */
static const struct product_values values = product_fp32_values;

/* The transpose of the right answer: got, read column after column, equals want. */
static int is_transposed(const float *got, const float *want, const double *scale, int m, int n, double tolerance)
{
    for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++)
            if (!(fabs((double)got[j * m + i] - want[i * n + j]) <= tolerance * scale[i * n + j]))
                return 0;
    return 1;
}

static void hint_call(struct lab *lab, const float *got, const float *want, const double *scale, int m, int n, int k,
                      double tolerance)
{
    long long count = (long long)m * n, unwritten = 0;
    for (long long e = 0; e < count; e++)
        unwritten += isnan(got[e]);
    if (unwritten == count)
        lab_hint(lab, "C was never written: was cublasSgemm called, and did it take the call? It returns a status "
                      "(print cublasGetStatusString's name for it): CUBLAS_STATUS_INVALID_VALUE means a leading "
                      "dimension smaller than its matrix's rows, counted as cuBLAS counts them, column-major");
    else if (m > 1 && n > 1 && is_transposed(got, want, scale, m, n, tolerance))
        lab_hint(lab, "C holds the transpose of A B: cuBLAS wrote its answer column after column, so read row-major "
                      "it is C^T. Ask it for C^T = B^T A^T instead: B first, then A, and n before m");
    else if (product_within(got, want, scale, count, product_tf32_tolerance(k)))
        lab_hint(lab, "C is right to within TF32's rounding, not fp32's: is the handle's math mode TF32 "
                      "(cublasSetMathMode with CUBLAS_TF32_TENSOR_OP_MATH, or a TF32 compute type)? The lab is "
                      "cuBLAS's SGEMM in fp32: leave the handle as the runner made it");
    else
        lab_hint(lab, "C is written but wrong at %d x %d x %d: are cuBLAS's M, N, K the rows and columns of its "
                      "column-major answer C^T (n, m, then k), and each leading dimension the length of a row of the "
                      "row-major matrix (B: n, A: k, C: n)?", m, n, k);
}

int main(int argc, char **argv)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch5_cublas: C = A B by cublasSgemm, on row-major matrices", &reps);
    /* m, n, k: one element; small and non-square, both ways; k above and below n; a column, a row,
     * k = 1; larger, then the timed square product (checked on a sample). */
    const int shapes[][3] = {{1, 1, 1},     {2, 3, 4},       {3, 2, 5},        {33, 17, 5},
                             {17, 33, 64},  {64, 1, 100},    {1, 64, 100},     {100, 37, 1},
                             {257, 129, 65}, {129, 257, 300}, {1000, 999, 513}, {4096, 4096, 4096}};
    const int last = COUNT_OF(shapes) - 1;
    long long elements[COUNT_OF(shapes)];  /* of the largest of A, B and C: what --small goes by */
    int big = 0;
    for (int s = 0; s < COUNT_OF(shapes); s++) {
        long long m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        elements[s] = m * n > m * k ? (m * n > k * n ? m * n : k * n) : (m * k > k * n ? m * k : k * n);
        big += elements[s] > LAB_SMALL_ELEMENTS;
    }
    lab_big_sizes(&lab, big);
    /* The correctness calls' matrices on the host, drawn anew for each call; the timed runs need none. */
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
        double tolerance = product_fp32_tolerance(k);
        char why[128];
        snprintf(why, sizeof why, "%d products of either sign added in fp32, the roundings of the sums; TF32's "
                 "inputs are 10 times further off", k);
        int sampled;
        if (product_check(&lab, values, got, want, scale, A, B, m, n, k, seed, tolerance, why, &sampled) && !sampled)
            hint_call(&lab, got, want, scale, m, n, k, tolerance);
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
