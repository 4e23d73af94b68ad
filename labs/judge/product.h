/* product.h: what the judges of ch5_cublas and ch5_mma share. Both labs compute C = A B with A m x k,
 * B k x n and C m x n, row-major floats, through a launch function lab_...(A, B, C, m, n, k); they differ
 * in the tolerance (fp32, or TF32 on the tensor cores), the hints, and the cuBLAS they are timed
 * against (its fp32 SGEMM, or the same in TF32 on the tensor cores). A and B come from the seed, in [0, 1):
 * every product is positive, so a sum's rounding error is bounded relative to the sum itself. A product of
 * up to 10^9 multiply-adds is checked element by element against the CPU, in double; a larger one on 4,096
 * elements drawn from the seed, after every element is checked for the poison. The timed runs write A and
 * B again before each run (a run that wrote them could leave its answers there for the next), poison C,
 * and check a fresh sample after. */
#ifndef LABS_PRODUCT_H
#define LABS_PRODUCT_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include "libraries.h"

#define PRODUCT_EVERY_ELEMENT_UP_TO 1000000000LL  /* multiply-adds; above, the CPU would take minutes */
#define PRODUCT_SAMPLED 4096
static_assert(PRODUCT_SAMPLED >= (int)LAB_SAMPLES, "the sample arrays below hold a timed run's sample too");

static float product_got[PRODUCT_SAMPLED], product_want[PRODUCT_SAMPLED];
static long long product_index[PRODUCT_SAMPLED];

/* Element (row, col) of A B over the first `terms` of its k products, in double. */
static double product_element(const float *A, const float *B, int n, int k, int terms, long long row, long long col)
{
    double sum = 0.0;
    for (int i = 0; i < terms; i++)
        sum += (double)A[row * k + i] * B[(long long)i * n + col];
    return sum;
}

/* The call the judge makes: A and B filled, C poisoned and read back into got. */
static void product_call(struct lab_call *c, const float *A, const float *B, float *got, int m, int n, int k)
{
    lab_call_start(c);
    lab_in(c, A, (size_t)m * k * sizeof(float));
    lab_in(c, B, (size_t)k * n * sizeof(float));
    lab_out(c, NULL, got, (size_t)m * n * sizeof(float));
    lab_int(c, m);
    lab_int(c, n);
    lab_int(c, k);
}

/* got against A B: every element (want gets the reference), or, for a product too large, none left with
 * the poison and a sample right. 1: it failed, and said why; *sampled says which check it was. */
static int product_check(struct lab *lab, const float *got, float *want, const float *A, const float *B, int m,
                         int n, int k, double tolerance, const char *why, int *sampled)
{
    long long count = (long long)m * n;
    char what[96];
    *sampled = (long long)m * n * k > PRODUCT_EVERY_ELEMENT_UP_TO;
    if (!*sampled) {
        for (long long e = 0; e < count; e++)
            want[e] = (float)product_element(A, B, n, k, k, e / n, e % n);
        snprintf(what, sizeof what, "%d x %d x %d", m, n, k);
        return lab_check_floats(lab, what, got, want, count, n, tolerance, why);
    }
    long long unwritten = 0, first = -1;
    for (long long e = 0; e < count; e++)
        if (isnan(got[e]) && !unwritten++)
            first = e;
    if (unwritten) {
        printf("  %d x %d x %d: FAIL, %lld of %lld elements still hold the poison C was filled with; first: element "
               "(row %lld, column %lld)\n", m, n, k, unwritten, count, first / n, first % n);
        lab_hint(lab, "some elements of C were never written: does the work cover every row and every column of C?");
        lab->failures++;
        return 1;
    }
    /* One element in each of PRODUCT_SAMPLED equal stretches of C, at a place drawn from the seed. */
    for (int j = 0; j < PRODUCT_SAMPLED; j++) {
        long long start = count * j / PRODUCT_SAMPLED, next = count * (j + 1) / PRODUCT_SAMPLED;
        long long e = start + (long long)(lab_bits(lab->seed, 3, j) % (unsigned long long)(next - start));
        product_index[j] = e;
        product_got[j] = got[e];
        product_want[j] = (float)product_element(A, B, n, k, k, e / n, e % n);
    }
    snprintf(what, sizeof what, "%d x %d x %d (every element written; %d sampled)", m, n, k, PRODUCT_SAMPLED);
    return lab_check_floats_at(lab, what, product_got, product_want, PRODUCT_SAMPLED, product_index, n, tolerance,
                               why);
}

/* The limit, cuBLAS's cublasSgemm on the same A and B (tf32: in TF32 on the tensor cores), then the
 * timed runs of the m x n x k product and the report. */
static void product_timed(struct lab *lab, const float *A, const float *B, int m, int n, int k, int reps,
                          double tolerance, const char *why, int tf32)
{
    size_t a_bytes = (size_t)m * k * sizeof(float), b_bytes = (size_t)k * n * sizeof(float);
    size_t c_bytes = (size_t)m * n * sizeof(float);
    double flops = 2.0 * m * n * k;
    float *a0 = (float *)lab_device_alloc(a_bytes), *b0 = (float *)lab_device_alloc(b_bytes);
    CUDA_CHECK(cudaMemcpy(a0, A, a_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b0, B, b_bytes, cudaMemcpyHostToDevice));
    struct stats library = cublas_gemm_time(a0, b0, m, n, k, tf32, reps);
    if (tf32)
        print_flops("cublas_tf32", "cuBLAS SGEMM in TF32", library, flops, lab->dev.peak_tf32_matrix_gflops,
                    "of the TF32 peak");
    else
        print_flops("cublas", "cuBLAS SGEMM (fp32)", library, flops, lab->dev.peak_fp32_gflops, "of the FP32 peak");
    float *dA = (float *)lab_shared(lab, a_bytes), *dB = (float *)lab_shared(lab, b_bytes);
    float *dC = (float *)lab_shared(lab, c_bytes);
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
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        CUDA_CHECK(cudaMemcpy(dA, a0, a_bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(dB, b0, b_bytes, cudaMemcpyDeviceToDevice));
        lab_poison(dC, c_bytes);
        lab_sample_draw(lab, &s);
        if (lab_timed_call(lab, &clock, &c, &s, 1))
            break;
        for (int j = 0; j < s.count; j++) {
            product_got[j] = lab_sample_float(&s, j);
            product_want[j] = (float)product_element(A, B, n, k, k, s.index[j] / n, s.index[j] % n);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_floats(lab, what, &s, product_got, product_want, n, tolerance, why))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(lab, lab_clock_stats(lab, &clock), flops, "GFLOP/s", flops / (library.median * 1e-3) / 1e9,
                   tf32 ? "of cuBLAS's speed in TF32" : "of cuBLAS's speed");
    }
    CUDA_CHECK(cudaFree(a0));
    CUDA_CHECK(cudaFree(b0));
}

#endif
