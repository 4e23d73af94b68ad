/* ch5_cublas's judge: the student's call of cublasSgemm on row-major matrices, at shapes where each
 * usual mistake shows: non-square ones (m and n swapped, or a transposed result, differ from the right
 * product only where m != n or the result is not symmetric), k above and below n (a wrong leading
 * dimension is refused by cuBLAS, or reads past the end of a matrix, which memcheck reports), a
 * row, a column and k = 1. Checked against the CPU within fp32's rounding (product.h), then timed
 * against the judge's own cublasSgemm of the same 4096 x 4096 x 4096 product. */
#include "lab.h"
#include "product.h"

/* The transpose of the right answer: got, read column after column, equals want. */
static int is_transposed(const float *got, const float *want, int m, int n, double tolerance)
{
    for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++)
            if (!(fabs((double)got[j * m + i] - want[i * n + j]) <= tolerance * fabs((double)want[i * n + j])))
                return 0;
    return 1;
}

static void hint_call(struct lab *lab, const float *got, const float *want, int m, int n, int k, double tolerance)
{
    long long count = (long long)m * n, unwritten = 0;
    for (long long e = 0; e < count; e++)
        unwritten += isnan(got[e]);
    if (unwritten == count)
        lab_hint(lab, "C was never written: was cublasSgemm called, and did it take the call? It returns a status "
                      "(print cublasGetStatusString's name for it): CUBLAS_STATUS_INVALID_VALUE means a leading "
                      "dimension smaller than its matrix's rows, counted as cuBLAS counts them, column-major");
    else if (m > 1 && n > 1 && is_transposed(got, want, m, n, tolerance))
        lab_hint(lab, "C holds the transpose of A B: cuBLAS wrote its answer column after column, so read row-major "
                      "it is C^T. Ask it for C^T = B^T A^T instead: B first, then A, and n before m");
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
    size_t most = (size_t)shapes[last][0] * shapes[last][2];  /* the floats of the largest A, B or C */
    float *A = (float *)host_alloc(most * sizeof(float)), *B = (float *)host_alloc(most * sizeof(float));
    float *got = (float *)host_alloc(most * sizeof(float)), *want = (float *)host_alloc(most * sizeof(float));
    for (size_t i = 0; i < most; i++) {
        A[i] = lab_uniform(lab.seed, 1, i);
        B[i] = lab_uniform(lab.seed, 2, i);
    }
    for (int s = 0; s < COUNT_OF(shapes) && !lab.time; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        long long mn = (long long)m * n, mk = (long long)m * k, kn = (long long)k * n;
        if (lab_skip(&lab, mn > mk ? (mn > kn ? mn : kn) : (mk > kn ? mk : kn)))
            continue;
        struct lab_call c;
        product_call(&c, A, B, got, m, n, k);
        if (lab_run(&lab, &c))
            break;
        /* Positive terms: k additions and the product's rounding, each off by 2^-24 at most, relative. */
        double tolerance = (k + 1) * FLOAT_ROUNDING;
        char why[96];
        snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
        int sampled;
        if (product_check(&lab, got, want, A, B, m, n, k, tolerance, why, &sampled) && !sampled)
            hint_call(&lab, got, want, m, n, k, tolerance);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    char why[96];
    snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
    product_timed(&lab, A, B, m, n, k, reps, (k + 1) * FLOAT_ROUNDING, why, 0);
    free(A), free(B), free(got), free(want);
    return lab_end(&lab);
}
