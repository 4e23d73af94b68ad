/* ch4_dot's judge: the student's dot product against the CPU's (in double) at sizes around a warp and a
 * block, a prime and 2^26 + 1, three runs at the large sizes to catch lost updates, then timed against
 * the copy bandwidth. Float atomics add in no fixed order, so two right runs may differ in their last
 * bits: each is checked against the tolerance, never against the other. The result is one float, which
 * a file could compute once and keep: before each timed run, 16 pairs x[i], y[i] get new values (from
 * the seed and the run's number), the reference follows, and the result is poisoned. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define THREADS 256  /* the statement's block size (labs/ch4_dot.cu); its launch is 32 x sms blocks */

/* The seed's streams: x, y, and the timed runs' changes (which pairs, their new values). */
enum { X_STREAM = 1, Y_STREAM, CHANGED_INDEX_STREAM, CHANGED_X_STREAM, CHANGED_Y_STREAM };
enum { CHANGED = 16 };  /* pairs x[i], y[i] changed before each timed run */

/* The signature of a += where atomicAdd is needed, in the checks and in the timed runs. */
#define LOST_UPDATES \
    "the result is too small: block sums lost (a += on *result where several blocks add at once needs atomicAdd)"

/* A product (1 rounding), the thread's additions, the tree's 8 and the atomics' (one per block): the
 * blocks' sums reach *result in any order, so an element's product may go through all of them. */
static double roundings(long long n, int sms)
{
    int blocks = 32 * sms;
    long long threads = (long long)blocks * THREADS;
    return 1 + (n + threads - 1) / threads + 8 + blocks;
}

/* One call of lab_dot(x, y, n, result, sms): result is poisoned, and read back into *got. */
static void dot_call(struct lab_call *c, const float *x, const float *y, long long n, float *got, int sms)
{
    lab_call_start(c);
    lab_in(c, x, n * sizeof(float));
    lab_in(c, y, n * sizeof(float));
    lab_int(c, n);
    lab_out(c, NULL, got, sizeof(float));
    lab_int(c, sms);
}

/* Before timed run `run` (-1: the warm-up): CHANGED pairs x[i], y[i], on the host and on the GPU, get
 * values whose product is `jump` or more, and *dot follows them. */
static void change_inputs(const struct lab *lab, float *x, float *y, float *dev_x, float *dev_y, long long n, int run,
                          double jump, double *dot)
{
    for (int k = 0; k < CHANGED; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGED + k;
        long long i = (long long)(lab_bits(lab->seed, CHANGED_INDEX_STREAM, draw) % (unsigned long long)n);
        float u = (float)(sqrt(jump) * (1.0 + lab_uniform(lab->seed, CHANGED_X_STREAM, draw)));
        float v = (float)(sqrt(jump) * (1.0 + lab_uniform(lab->seed, CHANGED_Y_STREAM, draw)));
        *dot += (double)u * v - (double)x[i] * y[i];
        x[i] = u, y[i] = v;
        CUDA_CHECK(cudaMemcpy(dev_x + i, &u, sizeof u, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dev_y + i, &v, sizeof v, cudaMemcpyHostToDevice));
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_dot: a dot product, one atomicAdd per block", &reps);
    const int sms = lab.dev.sms;
    const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    for (long long i = 0; i < n_max; i++) {  /* positive: the sum's relative error is bounded */
        x[i] = lab_uniform(lab.seed, X_STREAM, i) + 0.5f;
        y[i] = lab_uniform(lab.seed, Y_STREAM, i) + 0.5f;
    }
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        double want = 0.0;
        for (long long i = 0; i < n; i++)
            want += (double)x[i] * y[i];
        double count = roundings(n, sms);
        char what[32], why[128];
        snprintf(what, sizeof what, "n = %lld", n);
        snprintf(why, sizeof why, "%.0f roundings an element's product goes through, each off by 2^-24", count);
        float want_float = (float)want;
        /* Three runs: a lost update need not happen in every one. */
        int stopped = 0;
        for (int r = 0; r < 3; r++) {
            float got;
            struct lab_call c;
            dot_call(&c, x, y, n, &got, sms);
            if ((stopped = lab_run(&lab, &c)))
                break;
            if (lab_check_floats(&lab, what, &got, &want_float, 1, 0, count * FLOAT_ROUNDING, why)) {
                if (got < want)
                    lab_hint(&lab, LOST_UPDATES);
                break;
            }
            if (n < 1000000)
                break;
        }
        if (stopped)
            break;
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs. New values like the old ones, in [0.5, 1.5), would move the result by a few units,
     * far inside the tolerance (about 17 000 at 2^26 elements on a GPU of 132 SMs): each changed pair's
     * product is `jump` or more, so that every run's result is ten tolerances or more away from the run's
     * before. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    size_t bytes = n_max * sizeof(float);
    float *dev_x = (float *)lab_shared(&lab, bytes), *dev_y = (float *)lab_shared(&lab, bytes);
    float *result = (float *)lab_shared(&lab, sizeof(float));
    CUDA_CHECK(cudaMemcpy(dev_x, x, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dev_y, y, bytes, cudaMemcpyHostToDevice));
    double dot = 0.0, count = roundings(n_max, sms);
    for (long long i = 0; i < n_max; i++)
        dot += (double)x[i] * y[i];
    const double jump = 10 * count * FLOAT_ROUNDING * dot / CHANGED;
    char why[128];
    snprintf(why, sizeof why, "%.0f roundings an element's product goes through, each off by 2^-24", count);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_x);
    lab_use(&c, dev_y);
    lab_int(&c, n_max);
    lab_use(&c, result);
    lab_int(&c, sms);
    static struct lab_sample s;
    s.output = result, s.size = 4, s.n = 1;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    float last = NAN;
    while (lab_clock_next(&clock)) {
        change_inputs(&lab, x, y, dev_x, dev_y, n_max, clock.run, jump, &dot);
        lab_poison(result, sizeof(float));  /* the statement's launch zeroes it */
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        float got = lab_sample_float(&s, 0), want = (float)dot;
        char what[32];
        snprintf(what, sizeof what, "timed run %d", clock.run + 1);
        if (lab_check_floats(&lab, what, &got, &want, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (got == last)
                lab_hint(&lab, "the result is the run's before, although %d pairs of x and y changed since: each "
                               "run must use the x and y it is given", CHANGED);
            else if (got < want)
                lab_hint(&lab, LOST_UPDATES);
            break;
        }
        last = got;
    }
    if (!lab.failures) {
        printf("  every timed run's result was right, with %d pairs of x and y changed before each run\n", CHANGED);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(x), free(y);
    return lab_end(&lab);
}
