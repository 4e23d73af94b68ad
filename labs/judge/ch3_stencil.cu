/* ch3_stencil's judge: the student's Jacobi step checked bit for bit against the CPU, after one step and
 * after three, on plates of awkward sides (3: one inside point; 4; 33; a block of columns and one; 1000,
 * whose 998 inside rows end in part of a walk; 1025), then a step timed on an 8192 x 8192 plate against
 * the copy bandwidth. Every plate is random, in [0, 1), from a seed of its own (lab_fresh): each check's,
 * and each timed run's. Each step is one call: its output starts as the plate's edges around poison on
 * the first step, and the two plates swap between steps. Before each timed run, the warm-up too, the
 * judge writes a new plate into in on the GPU from the run's seed, and resets out to that plate's edges
 * around poison; a sample of out, drawn afresh each run, is checked after against points remade on the
 * CPU from the seed (a point's four neighbours, added in the statement's order: exact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* The plate's values, [0, 1), and the stream of a call's seed they come from. */
#define PLATE_LOW 0.0f
#define PLATE_HIGH 1.0f
enum { STREAM_PLATE = 1 };

/* ==== The judge's kernel: a timed run's output reset ==== */

/* The edges of an n x n plate made from `seed` (as lab_fill_floats makes the plate) written into out, which
 * holds poison: what a step's output starts as, for the plate of this run. */
__global__ void plate_edges(float *out, int n, unsigned long long seed)
{
    long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x, last = (long long)(n - 1) * n;
    if (j >= n)
        return;
    out[j] = lab_value(seed, STREAM_PLATE, j, PLATE_LOW, PLATE_HIGH);                /* row 0 */
    out[last + j] = lab_value(seed, STREAM_PLATE, last + j, PLATE_LOW, PLATE_HIGH);  /* row n - 1 */
    out[j * n] = lab_value(seed, STREAM_PLATE, j * n, PLATE_LOW, PLATE_HIGH);        /* column 0 */
    out[j * n + n - 1] = lab_value(seed, STREAM_PLATE, j * n + n - 1, PLATE_LOW, PLATE_HIGH);  /* column n - 1 */
}

/* ==== The CPU's steps, and what a step's output starts as ==== */

/* The new value of inside point i of an n x n plate, the additions in the statement's order. */
static float cpu_point(const float *a, int n, long long i)
{
    return 0.25f * ((a[i - n] + a[i + n]) + (a[i - 1] + a[i + 1]));
}

/* The same new value from the seed alone, the four neighbours remade as the judge's fill wrote them (a
 * timed run's reference, with no copy of the plate on the host). */
static float seed_point(unsigned long long seed, int n, long long i)
{
    float up = lab_value(seed, STREAM_PLATE, i - n, PLATE_LOW, PLATE_HIGH);
    float down = lab_value(seed, STREAM_PLATE, i + n, PLATE_LOW, PLATE_HIGH);
    float left = lab_value(seed, STREAM_PLATE, i - 1, PLATE_LOW, PLATE_HIGH);
    float right = lab_value(seed, STREAM_PLATE, i + 1, PLATE_LOW, PLATE_HIGH);
    return 0.25f * ((up + down) + (left + right));
}

/* `steps` steps on the CPU; returns the buffer holding the last. */
static float *cpu_steps(float *a, float *b, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        for (int row = 1; row < n - 1; row++)
            for (int col = 1; col < n - 1; col++)
                b[(long long)row * n + col] = cpu_point(a, n, (long long)row * n + col);
        float *t = a;
        a = b, b = t;
    }
    return a;
}

/* What a step's output holds before the first step: the plate's edges around poison, so that an inside
 * point no thread writes stays NaN. */
static void edges_around_poison(float *out, const float *plate, int n)
{
    memset(out, LAB_POISON_BYTE, (size_t)n * n * sizeof(float));
    for (long long col = 0; col < n; col++) {
        out[col] = plate[col];
        out[(long long)(n - 1) * n + col] = plate[(long long)(n - 1) * n + col];
    }
    for (long long row = 1; row < n - 1; row++) {
        out[row * n] = plate[row * n];
        out[row * n + n - 1] = plate[row * n + n - 1];
    }
}

/* ==== The student's steps, and the signatures of their mistakes ==== */

/* `steps` steps of the student's code, one call each, from a into b; then the two swap, as heat.cu's
 * plates do, so that a later step writes over the plate two steps back. The last step lands in *last. */
static int gpu_steps(struct lab *lab, float *a, float *b, int n, int steps, const float **last)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    for (int s = 0; s < steps; s++) {
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, a, bytes);
        lab_out(&c, b, b, bytes);  /* out starts as b, and the step comes back into b */
        lab_int(&c, n);
        if (lab_run(lab, &c))
            return 1;
        float *t = a;
        a = b, b = t;
    }
    *last = a;
    return 0;
}

/* After the first failed check, the stencil's own signatures: an edge written, or every point right to
 * within rounding. */
static void hint_stencil(struct lab *lab, const float *got, const float *want, int n)
{
    for (long long i = 0; i < (long long)n * n; i++) {
        long long row = i / n, col = i % n;
        if ((row == 0 || row == n - 1 || col == 0 || col == n - 1) && got[i] != want[i]) {
            lab_hint(lab, "an edge point changed (row %lld, column %lld): rows 0 and n - 1 and columns 0 and n - 1 "
                          "keep their values; write rows and columns 1 to n - 2 only", row, col);
            return;
        }
    }
    for (long long i = 0; i < (long long)n * n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-6f * want[i]))
            return;
    lab_hint(lab, "every wrong point is right to within rounding: add up + down, then left + right, then the "
                  "two sums, and multiply by 0.25f once; another order (or a * b + c, which the compiler fuses "
                  "into one instruction) rounds differently");
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_stencil: a Jacobi step, each thread walking down a column", &reps);
    const int sides[] = {3, 4, 33, 129, 361, 1000, 1025, 8192}, step_counts[] = {1, 3};
    const int last = COUNT_OF(sides) - 1, n_max = sides[last];
    size_t bytes_max = (size_t)n_max * n_max * sizeof(float);
    int big = 0;  /* the checks past --small's sizes (the largest plate takes one step only) */
    for (int k = 0; k < COUNT_OF(sides); k++)
        if ((long long)sides[k] * sides[k] > LAB_SMALL_ELEMENTS)
            big += sides[k] == n_max ? 1 : COUNT_OF(step_counts);
    lab_big_sizes(&lab, big);
    /* The checks' plates on the host: the start, the two the student's steps go through, and the CPU's
     * other one. The timed runs need none. */
    float *plate = NULL, *a = NULL, *b = NULL, *other = NULL;
    if (!lab.time) {
        plate = (float *)host_alloc(bytes_max), a = (float *)host_alloc(bytes_max);
        b = (float *)host_alloc(bytes_max), other = (float *)host_alloc(bytes_max);
    }
    int stopped = 0;
    for (int k = 0; k < COUNT_OF(sides) && !lab.time && !stopped; k++)
        for (int j = 0; j < COUNT_OF(step_counts) && !stopped; j++) {
            int n = sides[k], steps = step_counts[j];
            size_t bytes = (size_t)n * n * sizeof(float);
            if ((n == n_max && steps > 1) || lab_skip(&lab, (long long)n * n))
                continue;
            /* random, from this check's own seed: a neighbour from the wrong place shows */
            unsigned long long seed = lab_fresh(&lab);
            for (long long i = 0; i < (long long)n * n; i++)
                plate[i] = lab_value(seed, STREAM_PLATE, i, PLATE_LOW, PLATE_HIGH);
            memcpy(a, plate, bytes);
            edges_around_poison(b, plate, n);
            const float *got;
            if (gpu_steps(&lab, a, b, n, steps, &got)) {
                stopped = 1;  /* a CUDA error, a crash or a time-out, said already */
                break;
            }
            memcpy(other, plate, bytes);
            const float *want = cpu_steps(plate, other, n, steps);
            char what[64];
            snprintf(what, sizeof what, "%d x %d plate, %d step%s", n, n, steps, steps > 1 ? "s" : "");
            if (lab_check_floats(&lab, what, got, want, (long long)n * n, n, 0,
                                 "the CPU adds in the same order: exact") &&
                lab.failures == 1)  /* the first failure's signature is the telling one */
                hint_stencil(&lab, got, want, n);
        }
    free(plate), free(a), free(b), free(other);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: one step each, from a plate in that the judge writes anew before each run, into
     * out reset to what the first step's output starts as: that plate's edges around poison, so that
     * every run must write every inside point. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *in = (float *)lab_shared(&lab, bytes_max), *out = (float *)lab_shared(&lab, bytes_max);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, n_max);
    static struct lab_sample s;
    static float got[LAB_SAMPLES], want[LAB_SAMPLES];
    s.output = out, s.size = 4, s.n = (long long)n_max * n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        /* Every point of in new, from this run's seed, which the runner never sees: nothing the file
         * left in either plate survives. */
        unsigned long long seed = lab_fresh(&lab);
        lab_fill_floats(in, (long long)n_max * n_max, seed, STREAM_PLATE, PLATE_LOW, PLATE_HIGH);
        lab_poison(out, bytes_max);
        plate_edges<<<(int)ceil_div(n_max, 256), 256>>>(out, n_max, seed);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        /* The reference: one step on the CPU, at the sampled points, from the seed (an edge point keeps
         * its value). */
        for (int k = 0; k < s.count; k++) {
            long long i = s.index[k], row = i / n_max, col = i % n_max;
            int edge = row == 0 || row == n_max - 1 || col == 0 || col == n_max - 1;
            got[k] = lab_sample_float(&s, k);
            want[k] = edge ? lab_value(seed, STREAM_PLATE, i, PLATE_LOW, PLATE_HIGH) : seed_point(seed, n_max, i);
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled points", clock.run + 1, s.count);
        if (lab_check_sample_floats(&lab, what, &s, got, want, n_max, 0, "the CPU adds in the same order: exact"))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d points drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * (n_max - 2) * (n_max - 2), "GB/s", copy_gbs,
                   "of the copy bandwidth");
    }
    return lab_end(&lab);
}
