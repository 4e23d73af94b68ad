/* sweep.c: see sweep.h. */
#include "sweep.h"
#include "check.h"
#include "csv.h"
#include "stats.h"
#include "timer.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Powers of two, and sizes that are not multiples of any tile (127, 1000, 4000, 4097). */
static const int all_sizes[] = {127, 256, 512, 1000, 1024, 2048, 4000, 4096, 4097, 8192, 16384};
enum { ALL_SIZES = sizeof all_sizes / sizeof all_sizes[0] };
_Static_assert(ALL_SIZES + 1 <= SWEEP_MAX_SIZES, "room for every size and max_n");

/* fp32 against fp32 summed in another order: ||C - C_ref|| / ||C_ref|| below SWEEP_FP32_TOLERANCE, and no
 * element off by more than ELEMENT_TOLERANCE of the reference's largest. */
static const double ELEMENT_TOLERANCE = 1e-3;

int sweep_sizes(long long max_n, int sizes[SWEEP_MAX_SIZES])
{
    int count = 0;
    for (int i = 0; i < ALL_SIZES; i++)
        if (all_sizes[i] <= max_n)
            sizes[count++] = all_sizes[i];
    if (count == 0 || sizes[count - 1] != max_n)
        sizes[count++] = (int)max_n;
    return count;
}

void sweep_start(struct sweep *sw, long long max_n, int reps, enum sweep_check check, const char *csv_path)
{
    memset(sw, 0, sizeof *sw);
    sw->count = sweep_sizes(max_n, sw->sizes);
    sw->s = -1;
    sw->reps = reps;
    sw->check = check;
    sw->csv_path = csv_path;
    sw->max_n = (int)max_n;
    size_t most = (size_t)max_n * max_n;
    sw->A = host_alloc(most * sizeof(float));
    sw->B = host_alloc(most * sizeof(float));
    sw->got = host_alloc(most * sizeof(float));
    sw->want = host_alloc(most * sizeof(float));
    sw->row_norm = host_alloc(max_n * sizeof(double));
    sw->col_norm = host_alloc(max_n * sizeof(double));
    sw->ms = host_alloc(reps * sizeof(double));
    srand(5);
    for (size_t i = 0; i < most; i++) {
        sw->A[i] = 2.0f * rand() / RAND_MAX - 1.0f;
        sw->B[i] = 2.0f * rand() / RAND_MAX - 1.0f;
    }
    CUDA_CHECK(cudaMalloc((void **)&sw->dA, most * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&sw->dB, most * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&sw->dC, most * sizeof(float)));
    /* A temporary file until sweep_finish: a run that fails leaves none (output.h). */
    sw->csv = csv_open(csv_path, "kernel,n,median_ms,mean_ms,std_ms,gflops,rel_error,tile");
}

void sweep_kernels(struct sweep *sw, int kernels, const char *const names[], sweep_launch launch,
                   const void *plan, int reference)
{
    sw->kernels = kernels;
    sw->names = names;
    sw->launch = launch;
    sw->plan = plan;
    sw->reference = reference;
    for (int k = 0; k < SWEEP_MAX_KERNELS; k++)
        sw->largest[k] = INT_MAX;
}

void sweep_up_to(struct sweep *sw, int kernel, int largest)
{
    sw->largest[kernel] = largest;
}

void sweep_limit(struct sweep *sw, const char *name, double gflops)
{
    csv_row(sw->csv, "%s,0,,,,%.1f,,", name, gflops);
}

/* How long the sizes still to run will take, from what the last one cost: each kernel's seconds grow
 * as n^3, the host's (copies and checks) as n^2. Said once, when a size of 2048 or more has run: below
 * it the first launches' one-time costs dominate, and sgemm_ladder's naive kernel runs 2.5x faster at
 * n = 1000 than at powers of two (a 14-SM H100, through MPS). */
static void say_how_long_the_rest(struct sweep *sw)
{
    int s = sw->s;
    double rest = 0.0;
    for (int later = s; later < sw->count && s > 0 && sw->sizes[s - 1] >= 2000; later++) {
        double ratio = (double)sw->sizes[later] / sw->sizes[s - 1];
        for (int k = 0; k < sw->kernels; k++)
            rest += sw->sizes[later] > sw->largest[k] ? 0.0 : sw->kernel_s[k] * ratio * ratio * ratio;
        rest += sw->host_s * ratio * ratio;
    }
    if (sw->warned || rest < 10.0)
        return;
    char what[64], shorter[32];
    snprintf(what, sizeof what, "n = %d to %d", sw->n, sw->sizes[sw->count - 1]);
    snprintf(shorter, sizeof shorter, "--max %d", sw->sizes[s - 1]);
    say_how_long(what, rest, shorter);
    sw->warned = 1;
    for (int later = s; later < sw->count; later++)
        sw->work_all += (double)sw->sizes[later] * sw->sizes[later] * sw->sizes[later];
}

int sweep_next(struct sweep *sw)
{
    if (sw->s >= 0) {  /* the size just measured: how far the sweep is, what its host part cost */
        double n = sw->n;
        if (sw->work_all > 0.0)
            say_progress((sw->work_done += n * n * n) / sw->work_all);
        sw->host_s = wall_seconds() - sw->size_start - sw->size_kernel_s;
        sw->host_s = sw->host_s > 0.0 ? sw->host_s : 0.0;
    }
    if (++sw->s >= sw->count)
        return 0;
    int n = sw->n = sw->sizes[sw->s];
    say_how_long_the_rest(sw);
    sw->size_start = wall_seconds();
    sw->size_kernel_s = 0.0;
    /* The n x n matrices are the top-left corners of the big random ones, repacked. */
    for (int r = 0; r < n; r++) {
        memcpy(sw->got + (size_t)r * n, sw->A + (size_t)r * sw->max_n, n * sizeof(float));
        memcpy(sw->want + (size_t)r * n, sw->B + (size_t)r * sw->max_n, n * sizeof(float));
    }
    if (sw->check == SWEEP_TF32) {
        for (int i = 0; i < n; i++)
            sw->row_norm[i] = sw->col_norm[i] = 0.0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                sw->row_norm[r] += (double)sw->got[(size_t)r * n + c] * sw->got[(size_t)r * n + c];
                sw->col_norm[c] += (double)sw->want[(size_t)r * n + c] * sw->want[(size_t)r * n + c];
            }
        for (int i = 0; i < n; i++) {
            sw->row_norm[i] = sqrt(sw->row_norm[i]);
            sw->col_norm[i] = sqrt(sw->col_norm[i]);
        }
    }
    size_t elements = (size_t)n * n;
    CUDA_CHECK(cudaMemcpy(sw->dA, sw->got, elements * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(sw->dB, sw->want, elements * sizeof(float), cudaMemcpyHostToDevice));
    sw->launch(sw->reference, sw->dA, sw->dB, sw->dC, n, sw->plan);
    CUDA_CHECK(cudaMemcpy(sw->want, sw->dC, elements * sizeof(float), cudaMemcpyDeviceToHost));
    sw->ref_norm = sw->ref_max = 0.0;
    for (size_t i = 0; i < elements; i++) {
        sw->ref_norm += (double)sw->want[i] * sw->want[i];
        sw->ref_max = fabs(sw->want[i]) > sw->ref_max ? fabs(sw->want[i]) : sw->ref_max;
    }
    return 1;
}

/* SWEEP_FP32: see ELEMENT_TOLERANCE. */
static double fp32_error(struct sweep *sw, const char *name)
{
    size_t elements = (size_t)sw->n * sw->n;
    double diff = 0.0, worst = 0.0;
    for (size_t i = 0; i < elements; i++) {
        double d = fabs((double)sw->got[i] - sw->want[i]);
        diff += d * d;
        worst = worst_of(worst, d);
    }
    double rel = sqrt(diff / sw->ref_norm);
    if (!(rel <= SWEEP_FP32_TOLERANCE && worst <= ELEMENT_TOLERANCE * sw->ref_max))
        sw->failures += check(0, "%s at n = %d: relative error %.1e, worst element off by %.1e", name, sw->n, rel,
                              worst);
    return rel;
}

/* SWEEP_TF32 against fp32: each input rounded to TF32's 10 mantissa bits is off by at most 2^-11 of
 * itself (2^-10 where the tensor cores read it truncated, as cuBLAS may, sgemm_tensor does without
 * --round and sgemm_hopper does for A), so each product by at most about 2^-9 of |a b|. Independent
 * errors make the whole product off by about 2^-11 / sqrt(3) = 2.8e-4 (Frobenius, relative) when
 * rounded, twice that truncated: SWEEP_TF32_TOLERANCE allows 2^-9. Element (i, j) may be off by
 * (2^-9 + 4 n 2^-24) x |row i of A| x |column j of B|: each product's TF32 error summed (Cauchy-Schwarz),
 * and both fp32 sums' rounding. */
static double tf32_error(struct sweep *sw, const char *name)
{
    int n = sw->n;
    double diff = 0.0, slack = ldexp(1.0, -9) + 4.0 * n * ldexp(1.0, -24);
    long long outside = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            double d = fabs((double)sw->got[(size_t)r * n + c] - sw->want[(size_t)r * n + c]);
            diff += d * d;
            if (!(d <= slack * sw->row_norm[r] * sw->col_norm[c]))  /* NaN fails too */
                outside++;
        }
    double rel = sqrt(diff / sw->ref_norm);
    if (!(rel <= SWEEP_TF32_TOLERANCE && outside == 0))
        sw->failures += check(0, "%s at n = %d: relative error %.1e, %lld elements outside the TF32 bound", name, n,
                              rel, outside);
    return rel;
}

double sweep_compare(struct sweep *sw, const char *name)
{
    double rel = sw->check == SWEEP_TF32 ? tf32_error(sw, name) : fp32_error(sw, name);
    sw->worst = worst_of(sw->worst, rel);
    return rel;
}

/* Correct first: C poisoned (NaN, so that an element nobody wrote fails), then one run, compared. */
double sweep_check(struct sweep *sw, int kernel, const char *name)
{
    size_t bytes = (size_t)sw->n * sw->n * sizeof(float);
    CUDA_CHECK(cudaMemset(sw->dC, 0xff, bytes));
    sw->launch(kernel, sw->dA, sw->dB, sw->dC, sw->n, sw->plan);
    CUDA_CHECK(cudaMemcpy(sw->got, sw->dC, bytes, cudaMemcpyDeviceToHost));
    return sweep_compare(sw, name);
}

double sweep_time(struct sweep *sw, int kernel, const char *tile, double error)
{
    int n = sw->n;
    struct timed_runs runs = timed_runs(sw->ms, sw->reps, 0);
    while (timed_run(&runs))
        sw->launch(kernel, sw->dA, sw->dB, sw->dC, n, sw->plan);
    struct stats st = stats_of(sw->ms, sw->reps);
    sw->kernel_s[kernel] = (sw->reps + 2) * st.median / 1e3;  /* the checked run, the warm-up and the timed runs */
    sw->size_kernel_s += sw->kernel_s[kernel];
    double gflops = 2.0 * n * (double)n * n / (st.median * 1e-3) / 1e9;
    csv_row(sw->csv, "%s,%d,%.5f,%.5f,%.5f,%.1f,%.2e,%s", sw->names[kernel], n, st.median, st.mean, st.std, gflops,
            error, tile);
    sw->gflops[sw->s][kernel] = gflops;
    return gflops;
}

/* The tensor-core rungs' summary, where the course sets its bars (n = 2048, 3072, ...): the rung against
 * cuBLAS in TF32 and against its own ceiling; cuBLAS in TF32 against its strict fp32 and the TF32 peak. */
void sweep_tf32_summary(const struct sweep *sw, int rung, int strict, int tf32, double ceiling, double peak)
{
    for (int s = 0; s < sw->count; s++)
        if (sw->sizes[s] >= 2048 && sw->sizes[s] % 1024 == 0) {
            const double *row = sw->gflops[s];
            printf("n = %d: %s %.0f%% of cuBLAS TF32 (%.0f%% of its own ceiling)", sw->sizes[s], sw->names[rung],
                   100.0 * row[rung] / row[tf32], 100.0 * row[rung] / ceiling);
            printf("; cuBLAS TF32 %.1f TFLOP/s, %.1fx its strict fp32, %.0f%% of the TF32 peak\n", row[tf32] / 1e3,
                   row[tf32] / row[strict], 100.0 * row[tf32] / peak);
        }
}

void sweep_finish(struct sweep *sw)
{
    if (sw->failures == 0) {  /* else output.h removes the temporary file at exit: no CSV from a failed run */
        csv_close(sw->csv);
        printf("wrote %s\n", sw->csv_path);
    }
    float *on_gpu[] = {sw->dA, sw->dB, sw->dC};
    for (size_t i = 0; i < sizeof on_gpu / sizeof on_gpu[0]; i++)
        CUDA_CHECK(cudaFree(on_gpu[i]));
    void *on_host[] = {sw->A, sw->B, sw->got, sw->want, sw->row_norm, sw->col_norm, sw->ms};
    for (size_t i = 0; i < sizeof on_host / sizeof on_host[0]; i++)
        free(on_host[i]);
}
