/* ch5_mma's judge: the student's mma.sync kernel in TF32, on GPUs of compute capability 8.0 and newer
 * (elsewhere the lab cannot run, and says so). Checked against the CPU within TF32's error (product.h)
 * at shapes of one warp's tile and one step of k, of one element, of sizes just past a tile (16 rows, 8
 * columns, 8 along k) where the guards and the last step of k show, tall, wide and deep; then the
 * 4096 x 4096 x 4096 product, checked on a sample and timed against cuBLAS's SGEMM in TF32 on matrices
 * of the same kind. Every call's A and B are new, from a seed of its own (product.h). */
#include "lab.h"
#include "product.h"

/* A and B: in [0, 1), so that every product is positive and the tolerance below holds relative to the
 * sum itself, which the hints compare with. */
static const struct product_values values = {0.0f, 1.0f, 0};

static void hint_kernel(struct lab *lab, const float *got, const float *want, const float *A, const float *B, int m,
                        int n, int k)
{
    long long count = (long long)m * n, unwritten = 0, first = -1;
    for (long long e = 0; e < count; e++) {
        unwritten += isnan(got[e]);
        if (first < 0 && !(fabs((double)got[e] - want[e]) <= product_tf32_tolerance(k) * fabs((double)want[e])))
            first = e;
    }
    if (first < 0)
        return;
    long long row = first / n, col = first % n;
    int whole = k / 8 * 8;
    double short_k = product_element(A, B, n, k, whole, row, col, NULL);
    if (unwritten == count)
        lab_hint(lab, "C still holds the poison everywhere: did the kernel's body run? It stays inside #if "
                      "__CUDA_ARCH__ >= 800, and every lane of a warp takes part in each mma_tf32");
    else if (isnan(got[first]))
        lab_hint(lab, "element (row %lld, column %lld) was never written: does each warp store its four sums, "
                      "skipping only those outside C?", row, col);
    else if (k % 8 && fabs(got[first] - short_k) <= product_tf32_tolerance(k) * short_k)
        lab_hint(lab, "element (row %lld, column %lld) holds the sum of its first %d products, not of all %d: k is "
                      "%d steps of 8 and %d more. Count the steps with a ceiling; the loads past k give 0", row, col,
                 whole, k, k / 8, k % 8);
    else
        lab_hint(lab, "C is written, but element (row %lld, column %lld), at row %lld and column %lld of its warp's "
                      "16 x 8 tile, is wrong: check each register of the fragments and of the sums against the "
                      "statement's table (which row, which column)", row, col, row % 16, col % 8);
}

int main(int argc, char **argv)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch5_mma: C = A B on the tensor cores, mma.sync in TF32", &reps);
    if (lab.dev.major < 8)
        lab_cannot_run(&lab, "needs TF32 tensor cores (compute capability 8.0 or newer)");
    /* m, n, k: one warp's tile and one step; one element; one past a tile and a step; then odd sizes,
     * tall, wide and deep; then the timed product, checked on a sample. */
    const int shapes[][3] = {{16, 8, 8},    {1, 1, 1},      {17, 9, 9},       {33, 31, 17},    {31, 33, 64},
                             {64, 64, 1025}, {1025, 33, 7}, {7, 1000, 129}, {257, 255, 1000}, {4096, 4096, 4096}};
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
        char why[128];
        snprintf(why, sizeof why, "TF32 inputs: each product off by up to 2^-9; then %d sums in fp32", k);
        int sampled;
        double tolerance = product_tf32_tolerance(k);  /* (positive products: relative to the sum itself) */
        if (product_check(&lab, values, got, want, scale, A, B, m, n, k, seed, tolerance, why, &sampled) && !sampled)
            hint_kernel(&lab, got, want, A, B, m, n, k);
    }
    free(A), free(B), free(got), free(want), free(scale);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    char why[128];
    snprintf(why, sizeof why, "TF32 inputs: each product off by up to 2^-9; then %d sums in fp32", k);
    product_timed(&lab, values, m, n, k, reps, product_tf32_tolerance(k), why, 1);
    return lab_end(&lab);
}
