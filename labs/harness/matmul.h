/* matmul.h: the harness of the two matrix-product labs (ch5_tiled, ch5_register_tile). Products of
 * awkward shapes checked element by element against the CPU (in double); the timed 4096 x 4096 product
 * on 4,096 sampled elements. Included by their harness files after the student's file. */
#include <stdio.h>
#include <stdlib.h>

#include "libraries.h"

struct problem { float *A, *B, *C; int m, n, k; };

static void problem_start(struct problem *p, const float *A, const float *B, int m, int n, int k)
{
    p->m = m, p->n = n, p->k = k;
    p->A = (float *)lab_device_alloc((size_t)m * k * sizeof(float));
    p->B = (float *)lab_device_alloc((size_t)k * n * sizeof(float));
    p->C = (float *)lab_device_alloc((size_t)m * n * sizeof(float));
    CUDA_CHECK(cudaMemcpy(p->A, A, (size_t)m * k * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->B, B, (size_t)k * n * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_matmul(p->A, p->B, p->C, p->m, p->n, p->k);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->A));
    CUDA_CHECK(cudaFree(p->B));
    CUDA_CHECK(cudaFree(p->C));
}

static double cpu_element(const float *A, const float *B, int n, int k, long long row, long long col)
{
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += (double)A[row * k + i] * B[(long long)i * n + col];
    return sum;
}

static int matmul_lab(int argc, char **argv, const char *title)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, title, &reps);
    /* m, n, k: one element; around a warp and a tile; a k of one tile and a bit; tall, wide and thin;
     * then the timed square product. */
    const int shapes[][3] = {{1, 1, 1}, {31, 33, 32}, {33, 31, 17}, {64, 64, 1025}, {1025, 33, 7},
                             {7, 1025, 129}, {257, 255, 1000}, {4096, 4096, 4096}};
    const int last = COUNT_OF(shapes) - 1;
    size_t most = (size_t)shapes[last][0] * shapes[last][2];
    float *A = (float *)host_alloc(most * sizeof(float)), *B = (float *)host_alloc(most * sizeof(float));
    float *got = (float *)host_alloc(most * sizeof(float)), *want = (float *)host_alloc(most * sizeof(float));
    unsigned seed = 7;
    for (size_t i = 0; i < most; i++) {
        A[i] = lab_random(&seed);
        B[i] = lab_random(&seed);
    }
    struct problem p;
    for (int s = 0; s < COUNT_OF(shapes); s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        long long elements = (long long)m * n > (long long)m * k ? (long long)m * n : (long long)m * k;
        if (lab_skip(&lab, elements))
            continue;
        problem_start(&p, A, B, m, n, k);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got, p.C, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost));
        problem_end(&p);
        /* Every element below a billion multiply-adds in all; else 4,096 of them, spread out. */
        long long count = (long long)m * n, step = (long long)m * n * k > 1000000000LL ? count / 4096 : 1;
        long long checked = 0;
        for (long long e = 0; e < count; e += step, checked++) {
            want[checked] = (float)cpu_element(A, B, n, k, e / n, e % n);
            got[checked] = got[e];
        }
        char what[64], why[96];
        snprintf(what, sizeof what, "%d x %d x %d%s", m, n, k, step > 1 ? " (sampled)" : "");
        snprintf(why, sizeof why, "%d products added in float, each addition off by 2^-24", k);
        /* Positive terms: k additions and the product's rounding, each relative 2^-24 at most. */
        lab_check_floats(&lab, what, got, want, checked, step > 1 ? 0 : n, (k + 1) * FLOAT_ROUNDING, why);
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    int m = shapes[last][0], n = shapes[last][1], k = shapes[last][2];
    double flops = 2.0 * m * n * k;
    struct stats cublas = cublas_sgemm_time(m, n, k, reps);
    print_flops("cuBLAS SGEMM (fp32)", cublas, flops, lab.dev.peak_fp32_gflops, "of the FP32 peak");
    problem_start(&p, A, B, m, n, k);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, flops, "GFLOP/s", flops / (cublas.median * 1e-3) / 1e9, "of cuBLAS's speed", LAB_TARGET_OF_CUBLAS);
    problem_end(&p);
    free(A), free(B), free(got), free(want);
    return lab_end(&lab);
}
