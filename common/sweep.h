/* sweep.h: chapter 5's sweeps of float32 products C = A x B, n = 127 to --max: at each size every kernel
 * checked against a reference, then timed; a CSV row each, and before a long rest how long it will take.
 *   sweep_start(&sw, max_n, reps, SWEEP_TF32, csv_path);       sizes, random A and B, the CSV (temporary)
 *   sweep_kernels(&sw, KERNELS, names, launch, &plan, CUBLAS);  launch(k, A, B, C, n, &plan) queues kernel k
 *   while (sweep_next(&sw)) {                                   size sw.n: A, B, CUBLAS's C on the GPU
 *       double error = sweep_check(&sw, k, "mma_sync");        C poisoned, k run, compared: sw.failures
 *       sweep_time(&sw, k, "128x256x32", error);               timed_runs: a CSV row, sw.gflops[sw.s][k]
 *   }
 *   if (check(sw.failures == 0, ...)) return 1;  sweep_finish(&sw);   the CSV appears only after a pass
 * A tile, in a label or the CSV, is rows x columns of C, then k. */
#ifndef COMMON_SWEEP_H
#define COMMON_SWEEP_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

/* How a kernel's C is compared with the reference's (sweep_compare). */
enum sweep_check {
    SWEEP_FP32,  /* fp32 in another order: the relative Frobenius distance and the worst element */
    SWEEP_TF32   /* TF32 inputs: each element within the bound of TF32's rounding of its products */
};
#define SWEEP_FP32_TOLERANCE 1e-5      /* relative, Frobenius: sums of n terms differ by about sqrt(n) 2^-24 */
#define SWEEP_TF32_TOLERANCE (1.0 / 512)  /* 2^-9, relative, Frobenius */

enum { SWEEP_MAX_SIZES = 12, SWEEP_MAX_KERNELS = 8 };
typedef void (*sweep_launch)(int kernel, const float *A, const float *B, float *C, int n, const void *plan);

struct sweep {
    int sizes[SWEEP_MAX_SIZES], count;  /* 127, 256, ..., the largest: powers of two and awkward sizes */
    int s, n;                           /* the size being measured: n = sizes[s] */
    int largest[SWEEP_MAX_KERNELS];     /* kernel k runs at sizes up to largest[k] (sweep_up_to) */
    float *dA, *dB, *dC;                /* on the GPU: A and B of n x n, and C */
    double gflops[SWEEP_MAX_SIZES][SWEEP_MAX_KERNELS];
    int failures;                       /* checks failed */
    double worst;                       /* the largest relative error found */
    /* What the program gave: */
    int reps, kernels, reference;
    enum sweep_check check;
    const char *const *names;
    sweep_launch launch;
    const void *plan;
    const char *csv_path;
    /* The sweep's own: */
    int max_n;
    float *A, *B;                       /* max_n x max_n on the host; each size takes their top-left corners */
    float *got, *want;                  /* a kernel's C, the reference's C (A and B on their way up) */
    double *row_norm, *col_norm;        /* |row i of A|, |column j of B| (TF32) */
    double ref_norm, ref_max;           /* the sum of squares and the largest element of the reference */
    double *ms;
    FILE *csv;
    double kernel_s[SWEEP_MAX_KERNELS], size_kernel_s, host_s, size_start;  /* what the last size cost */
    double work_done, work_all;         /* n^3 of the sizes run, and of those announced, for say_progress */
    int warned;
};

int sweep_sizes(long long max_n, int sizes[SWEEP_MAX_SIZES]);  /* the sizes up to max_n, max_n last; count */
void sweep_start(struct sweep *sw, long long max_n, int reps, enum sweep_check check, const char *csv_path);
void sweep_kernels(struct sweep *sw, int kernels, const char *const names[], sweep_launch launch,
                   const void *plan, int reference);
void sweep_up_to(struct sweep *sw, int kernel, int largest);  /* past it, kernel takes minutes for nothing */
void sweep_limit(struct sweep *sw, const char *name, double gflops);
int sweep_next(struct sweep *sw);  /* ends the size before, starts the next; 0 once all have run */
double sweep_check(struct sweep *sw, int kernel, const char *name);   /* returns the relative error */
double sweep_compare(struct sweep *sw, const char *name);  /* sw->got against the reference sw->want */
double sweep_time(struct sweep *sw, int kernel, const char *tile, double error);  /* returns GFLOP/s */
void sweep_tf32_summary(const struct sweep *sw, int rung, int strict, int tf32, double ceiling, double peak);
void sweep_finish(struct sweep *sw);

#ifdef __cplusplus
}
#endif
#endif
