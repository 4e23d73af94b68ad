/* product.h: what the judges of ch5_cublas, ch5_mma, ch5_tiled and ch5_register_tile share (the last two
 * through matmul.h). Each lab computes C = A B with A m x k,
 * B k x n and C m x n, row-major floats, through a launch function lab_...(A, B, C, m, n, k); they differ
 * in what A and B hold (struct product_values: ch5_mma's are in [0, 1), the others' have either sign and
 * full mantissas, which tell fp32 from TF32), the tolerance (fp32, or TF32 on the tensor cores), the hints,
 * and the cuBLAS they are timed against (its fp32 SGEMM, or the same in TF32 on the tensor cores). Every
 * call's A and B come from a seed of its own (lab_fresh). An element's error is bounded relative to the
 * sum of its products' magnitudes, sum |a_i b_i| (for positive products, the sum itself). A product of up
 * to 10^9 multiply-adds is checked element by element against the CPU, in double; a larger one on 4,096
 * elements placed from its seed, after every element is checked for the poison. Before each timed run,
 * the warm-up too, the judge writes A and B afresh on the GPU from the run's seed (an answer left in them,
 * or a product kept from the run before, is worth nothing) and poisons C; after it a fresh sample is
 * checked against dot products remade on the CPU from that seed (a row of A and a column of B each). */
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
enum { PRODUCT_A = 1, PRODUCT_B, PRODUCT_PLACES };  /* a call's seed: A, B, and where a large C is sampled */

/* What A and B hold: magnitudes in [low, high) (lab_value: 24 random bits, rounded once), with a random
 * sign each when `signs`. */
struct product_values {
    float low, high;
    int signs;
};

/* ==== The inputs ==== */

/* Element i of A (stream PRODUCT_A) or B drawn from `seed`. The sign is the draw's lowest bit, which
 * lab_value, reading the top 24, leaves alone. */
static inline LAB_HOST_DEVICE float product_value(struct product_values v, unsigned long long seed, unsigned stream,
                                                  unsigned long long i)
{
    float x = lab_value(seed, stream, i, v.low, v.high);
    return v.signs && (lab_bits(seed, stream, i) & 1) ? -x : x;
}

/* A timed run's A or B, written on the GPU by the judge. */
__global__ void product_fill(float *x, long long count, struct product_values v, unsigned long long seed,
                             unsigned stream)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x)
        x[i] = product_value(v, seed, stream, i);
}

static void product_fill_gpu(float *x, long long count, struct product_values v, unsigned long long seed,
                             unsigned stream)
{
    product_fill<<<4096, 256>>>(x, count, v, seed, stream);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* A correctness call's A or B on the host, the same values. */
static void product_fill_host(float *x, long long count, struct product_values v, unsigned long long seed,
                              unsigned stream)
{
    for (long long i = 0; i < count; i++)
        x[i] = product_value(v, seed, stream, i);
}

/* fp32 told from TF32 (ch5_cublas, ch5_tiled, ch5_register_tile): A and B of magnitudes in [1, 2), each
 * with a random sign. Every one of the 23 mantissa bits past the leading 1 is random (lab_value's 24
 * bits, rounded once), so TF32, which keeps 10 of them, changes every input; and the products' signs make
 * the partial sums of C's elements wander like random walks, well below the sum of the products'
 * magnitudes, so that fp32's rounding errors (made on those partial sums) stay small while TF32's (made
 * on every product) do not. */
#define product_fp32_values {1.0f, 2.0f, 1}

/* fp32's bound for an element of C, a sum of k products, relative to S = sum |a_i b_i|, in units of
 * u = 2^-24 (FLOAT_ROUNDING):
 * - Each of the k steps of the sum (a fused multiply-add, or a product and an addition) rounds once or
 *   twice, by at most u of its result; each result is a partial sum, or a product, at most S. So the
 *   error is at most k u S (to first order), in any order of the additions: the bound while k < 7.
 * - Those roundings go either way, as likely one as the other: the error is sum_j d_j T_j, T_j the partial
 *   sums, |d_j| <= u, mean square u^2 / 3 at most. The products' signs being random, the partial sums are
 *   random walks: T_j^2 is j E[(ab)^2] = j (7/3)^2 on average, while S is k E|ab| = 2.25 k. The error's
 *   mean square, u^2 / 3 sum_j T_j^2, is then at most (0.42 u S)^2, at every k, in any order of the
 *   additions (chunks of k make shorter walks). The bound is 7 u S, 17 times that: in 20 million sums
 *   simulated as cuBLAS's kernels and the tiled labs' add (along k, a fused multiply-add a step) the
 *   largest error was 4.6 u S; an H200's cuBLAS, at ch5_cublas's shapes, 3.0 u S at most (20,000 elements
 *   of 1000 x 999 x 513), 2.5 at k = 4096, 0.31 in mean square.
 * TF32 keeps 11 significant bits of each input: rounded to nearest, an input in [1, 2) is off by up to
 * 2^-11 of itself, 0.41 x 2^-11 in mean square, a product 0.58 x 2^-11, independently from product to
 * product. The sum is then off by 0.58 x 2^-11 sqrt(sum (a_i b_i)^2) = 0.58 x 2^-11 x (7/3) sqrt(k) in mean
 * square: 4,900 / sqrt(k) u S, 77 u S at k = 4096 (the largest k the labs check, 11 times the bound), 153
 * at 1025, 216 at 513 (31 times), 40 to 4,900 times the bound at the other k (truncated to TF32, twice as
 * far). On the H200,
 * cuBLAS in its TF32 mode: 71 u S at k = 4096, 200 at 513, every element of the 2 x 3 x 4 product far
 * out. (Its TF32 mode computes the shapes of one row, one column or k = 1 in fp32: those pass; the others
 * fail on nearly every element.) */
static inline double product_fp32_tolerance(int k)
{
    return (k < 7 ? k : 7) * FLOAT_ROUNDING;
}

/* TF32's bound (ch5_mma's; for the others, the sign that a wrong C is TF32's): TF32 keeps 10 of fp32's 23
 * mantissa bits, so an input read as TF32 is off by up to 2^-10 of itself (truncated; 2^-11 rounded to
 * nearest), a product of two by up to 2^-9. Then k sums in fp32, each counted at 2^-22, four times fp32's
 * rounding, since the tensor cores' additions are not documented to round to nearest. Relative to the sum
 * of the products' magnitudes. */
static inline double product_tf32_tolerance(int k)
{
    return 0x1p-9 + (k + 1) * 0x1p-22;
}

/* Every element of got within tolerance x its scale (the sum of its products' magnitudes) of want. */
static inline int product_within(const float *got, const float *want, const double *scale, long long count,
                                 double tolerance)
{
    for (long long e = 0; e < count; e++)
        if (!(fabs((double)got[e] - want[e]) <= tolerance * scale[e]))
            return 0;
    return 1;
}

/* ==== The reference, and the check ==== */

static float product_got[PRODUCT_SAMPLED], product_want[PRODUCT_SAMPLED];
static double product_scale[PRODUCT_SAMPLED];
static long long product_index[PRODUCT_SAMPLED];

/* Element (row, col) of A B over the first `terms` of its k products, in double; *scale gets the sum of
 * their magnitudes (when scale is given). */
static double product_element(const float *A, const float *B, int n, int k, int terms, long long row, long long col,
                              double *scale)
{
    double sum = 0.0, magnitudes = 0.0;
    for (int i = 0; i < terms; i++) {
        double p = (double)A[row * k + i] * B[(long long)i * n + col];
        sum += p;
        magnitudes += fabs(p);
    }
    if (scale)
        *scale = magnitudes;
    return sum;
}

/* The same element from a timed run's seed alone: row `row` of A and column `col` of B remade as the
 * judge's fill wrote them on the GPU. */
static double product_seed_element(struct product_values v, unsigned long long seed, int n, int k, long long row,
                                   long long col, double *scale)
{
    double sum = 0.0, magnitudes = 0.0;
    for (int i = 0; i < k; i++) {
        double p = (double)product_value(v, seed, PRODUCT_A, row * k + i) *
                   product_value(v, seed, PRODUCT_B, (long long)i * n + col);
        sum += p;
        magnitudes += fabs(p);
    }
    *scale = magnitudes;
    return sum;
}

/* got against want, each element within tolerance x its scale (the sum of its products' magnitudes), as
 * lab.c's checks say it: `at`, when given, is where each element sits in C (a sample). Positive products
 * (no signs) go to lab.c's checks, relative to the sum, which is that scale. 1 if any is wrong. */
static int product_compare(struct lab *lab, struct product_values v, const char *what, const float *got,
                           const float *want, const double *scale, long long count, const long long *at, int cols,
                           double tolerance, const char *why)
{
    if (!v.signs)
        return at ? lab_check_floats_at(lab, what, got, want, count, at, cols, tolerance, why)
                  : lab_check_floats(lab, what, got, want, count, cols, tolerance, why);
    long long wrong = 0, first = -1, poisoned = 0;
    for (long long e = 0; e < count; e++)
        if (!(fabs((double)got[e] - want[e]) <= tolerance * scale[e])) {  /* NaN (poison) is wrong */
            first = first < 0 ? e : first;
            wrong++;
            poisoned += isnan(got[e]);
        }
    const char *of = at ? "sampled elements" : "elements";
    if (!wrong) {
        if (!lab->quiet)
            printf("  %s: PASS (every element within %.1e of the sum of its products' magnitudes)\n", what, tolerance);
        return 0;
    }
    lab->failures++;
    if (lab->failures > 3) {  /* three full reports say enough; the rest in a line each */
        printf("  %s: FAIL, %lld of %lld %s wrong\n", what, wrong, count, of);
        return 1;
    }
    long long e = at ? at[first] : first;
    printf("  %s: FAIL, %lld of %lld %s wrong; first: element (row %lld, column %lld), expected %.9g, got %.9g\n"
           "    (tolerance %.1e of the sum of the products' magnitudes, %.3g there: %s)\n", what, wrong, count, of,
           e / cols, e % cols, want[first], got[first], tolerance, scale[first], why);
    if (at && poisoned == wrong)
        lab_hint(lab, "every wrong element of this timed run still holds the poison the judge filled the output with: "
                      "no thread wrote it this time");
    return 1;
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

/* got against A B, from the call's seed: every element (want and scale get the reference), or, for a
 * product too large, none left with the poison and a sample right. 1: it failed, and said why; *sampled
 * says which check it was. */
static int product_check(struct lab *lab, struct product_values v, const float *got, float *want, double *scale,
                         const float *A, const float *B, int m, int n, int k, unsigned long long seed,
                         double tolerance, const char *why, int *sampled)
{
    long long count = (long long)m * n;
    char what[96];
    *sampled = (long long)m * n * k > PRODUCT_EVERY_ELEMENT_UP_TO;
    if (!*sampled) {
        for (long long e = 0; e < count; e++)
            want[e] = (float)product_element(A, B, n, k, k, e / n, e % n, &scale[e]);
        snprintf(what, sizeof what, "%d x %d x %d", m, n, k);
        return product_compare(lab, v, what, got, want, scale, count, NULL, n, tolerance, why);
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
    /* One element in each of PRODUCT_SAMPLED equal stretches of C, at a place drawn from the call's seed. */
    for (int j = 0; j < PRODUCT_SAMPLED; j++) {
        long long start = count * j / PRODUCT_SAMPLED, next = count * (j + 1) / PRODUCT_SAMPLED;
        long long e = start + (long long)(lab_bits(seed, PRODUCT_PLACES, j) % (unsigned long long)(next - start));
        product_index[j] = e;
        product_got[j] = got[e];
        product_want[j] = (float)product_element(A, B, n, k, k, e / n, e % n, &product_scale[j]);
    }
    snprintf(what, sizeof what, "%d x %d x %d (every element written; %d sampled)", m, n, k, PRODUCT_SAMPLED);
    return product_compare(lab, v, what, product_got, product_want, product_scale, PRODUCT_SAMPLED, product_index, n,
                           tolerance, why);
}

/* ==== The timed runs ==== */

/* The limit, cuBLAS's cublasSgemm on matrices of the same kind (tf32: in TF32 on the tensor cores), then
 * the timed runs of the m x n x k product and the report. */
static void product_timed(struct lab *lab, struct product_values v, int m, int n, int k, int reps, double tolerance,
                          const char *why, int tf32)
{
    size_t a_bytes = (size_t)m * k * sizeof(float), b_bytes = (size_t)k * n * sizeof(float);
    size_t c_bytes = (size_t)m * n * sizeof(float);
    double flops = 2.0 * m * n * k;
    float *a0 = (float *)lab_device_alloc(a_bytes), *b0 = (float *)lab_device_alloc(b_bytes);
    unsigned long long seed = lab_fresh(lab);
    product_fill_gpu(a0, (long long)m * k, v, seed, PRODUCT_A);
    product_fill_gpu(b0, (long long)k * n, v, seed, PRODUCT_B);
    struct stats library = cublas_gemm_time(a0, b0, m, n, k, tf32, reps);
    if (tf32)
        print_flops("cublas_tf32", "cuBLAS SGEMM in TF32", library, flops, lab->dev.peak_tf32_matrix_gflops,
                    "of the TF32 peak");
    else
        print_flops("cublas", "cuBLAS SGEMM (fp32)", library, flops, lab->dev.peak_fp32_gflops, "of the FP32 peak");
    CUDA_CHECK(cudaFree(a0));
    CUDA_CHECK(cudaFree(b0));
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
        /* Every element of A and B new, from this run's seed, which the runner never sees. */
        seed = lab_fresh(lab);
        product_fill_gpu(dA, (long long)m * k, v, seed, PRODUCT_A);
        product_fill_gpu(dB, (long long)k * n, v, seed, PRODUCT_B);
        lab_poison(dC, c_bytes);
        lab_sample_draw(lab, &s);
        if (lab_timed_call(lab, &clock, &c, &s, 1))
            break;
        for (int j = 0; j < s.count; j++) {  /* the CPU's reference for the sample only: k multiply-adds each */
            product_got[j] = lab_sample_float(&s, j);
            product_want[j] = (float)product_seed_element(v, seed, n, k, s.index[j] / n, s.index[j] % n,
                                                          &product_scale[j]);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (product_compare(lab, v, what, product_got, product_want, product_scale, s.count, s.index, n, tolerance,
                            why))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(lab, lab_clock_stats(lab, &clock), flops, "GFLOP/s", flops / (library.median * 1e-3) / 1e9,
                   tf32 ? "of cuBLAS's speed in TF32" : "of cuBLAS's speed");
    }
}

#endif
