/* ch4_dot's judge: the student's dot product against the CPU's (in double) at sizes around a warp and a
 * block, a prime and 2^26 + 1, three runs at the large sizes to catch lost updates, then timed against
 * the copy bandwidth. Float atomics add in no fixed order, so two right runs may differ in their last
 * bits: each is checked against the tolerance, never against the other. Every call, each size and each
 * timed run, has an x and a y of its own, drawn from lab_fresh, each in a range [scale / 2, 3 scale / 2)
 * whose scale is drawn for the call, and 1 to 8 elements of x 2^20 times larger at places drawn for the
 * call (spikes_of): neither the values nor the result's size can be known before it, nor estimated from a
 * sample. Before each timed run the judge writes the whole of x and y afresh and poisons the result, so
 * that a result kept from a run before, or anything a file left in x or y, is worth nothing; the reference
 * is the judge's own kernel's, in double, from the call's seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define THREADS 256  /* the statement's block size (labs/ch4_dot.cu); its launch is 32 x sms blocks */

/* A call's seed's streams: x, y, their ranges' scales, and x's spikes. */
enum { X_STREAM = 1, Y_STREAM, SCALE_STREAM, SPIKE_STREAM };
enum { SPAN = 30 };  /* a scale is 1 to 2 times 2^-SPAN .. 2^SPAN: every product and sum a normal float */

/* A call's range of x or y: [low, high). */
struct range { float low, high; };

/* A call's spikes: 1 to MAX_SPIKES elements of x, at places drawn for the call, SPIKE times the others.
 * Without them the sum of n values drawn alike is n times their mean to within a few 1e-5 at 2^26 (the
 * tolerance is 2.6e-4 on 132 SMs): a file could return n x the range's middle squared, reading nothing.
 * A spike moves the result by at least 0.25 x 2^20 / 2^26, 16 tolerances: only reading every element
 * finds them. (x stays positive: the rounding's bound stays relative to the result.) */
#define SPIKE 1048576.0f
enum { MAX_SPIKES = 8 };
struct spikes { int count; long long at[MAX_SPIKES]; };
static struct spikes spikes_of(unsigned long long s, long long n)
{
    struct spikes p;
    p.count = 1 + (int)lab_below(s, SPIKE_STREAM, 0, MAX_SPIKES);
    for (int k = 0; k < p.count; k++)
        p.at[k] = (long long)(lab_bits(s, SPIKE_STREAM, 1 + k) % (unsigned long long)n);
    return p;
}
/* x[i] of the call: its range's value, SPIKE times at a spike. */
static __host__ __device__ float x_at(unsigned long long s, long long i, struct range r, const struct spikes *p)
{
    float v = lab_value(s, X_STREAM, i, r.low, r.high);
    for (int k = 0; k < p->count; k++)
        if (p->at[k] == i)
            return v * SPIKE;
    return v;
}

/* The signature of a += where atomicAdd is needed, in the checks and in the timed runs. */
#define LOST_UPDATES \
    "the result is too small: block sums lost (a += on *result where several blocks add at once needs atomicAdd)"

static const long long sizes[] = {1, 31, 32, 33, 1023, 1025, 1000003, (1LL << 26) + 1};

/* ==== The judge's kernel ==== */

/* The reference of a timed run: the dot product of the x and y drawn from the call's seed, remade here
 * in double (never read from the buffers the runner shares): each thread's terms, a block's tree, one
 * atomicAdd a block. */
__global__ void dot_of_seed(long long n, unsigned long long seed, struct range x, struct range y, struct spikes p,
                            double *dot)
{
    __shared__ double part[256];
    double sum = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        sum += (double)x_at(seed, i, x, &p) * lab_value(seed, Y_STREAM, i, y.low, y.high);
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(dot, part[0]);
}

/* ==== The judge's host code ==== */

/* A call's range of x (which 0) or y (1), [scale / 2, 3 scale / 2). The statement promises no range. The
 * values are positive, so that the rounding stays bounded relative to the result (a sum of mixed signs
 * can cancel to nothing) and a result too small means block sums lost; each is at least a third of the
 * largest, as in [0.5, 1.5), so that a product lost or counted twice moves a small result past the
 * tolerance; and the scale spans 61 binades, so that no result can be guessed from n. */
static struct range range_of(unsigned long long s, int which)
{
    int binade = (int)lab_below(s, SCALE_STREAM, 2 * which, 2 * SPAN + 1) - SPAN;
    float scale = ldexpf(1.0f + lab_uniform(s, SCALE_STREAM, 2 * which + 1), binade);
    struct range r = {0.5f * scale, 1.5f * scale};
    return r;
}

/* A timed run's reference: dot_of_seed over the call's n elements, in the ranges of the call's x and y. */
static double dot_on_gpu(long long n, unsigned long long s)
{
    double *dot, host = 0;
    CUDA_CHECK(cudaMalloc(&dot, sizeof host));
    CUDA_CHECK(cudaMemset(dot, 0, sizeof host));
    long long blocks = ceil_div(n, 256);
    dot_of_seed<<<(int)(blocks < 4096 ? blocks : 4096), 256>>>(n, s, range_of(s, 0), range_of(s, 1),
                                                               spikes_of(s, n), dot);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&host, dot, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dot));
    return host;
}

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

/* Every size, each with an x and a y of their own; the large ones three times on the same x and y. */
static void check_sizes(struct lab *lab)
{
    const int sms = lab->dev.sms;
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    float *x = (float *)host_alloc(n_max * sizeof(float)), *y = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        struct range rx = range_of(s, 0), ry = range_of(s, 1);
        struct spikes p = spikes_of(s, n);
        double want = 0.0;
        for (long long i = 0; i < n; i++) {
            x[i] = x_at(s, i, rx, &p);
            y[i] = lab_value(s, Y_STREAM, i, ry.low, ry.high);
            want += (double)x[i] * y[i];
        }
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
            if ((stopped = lab_run(lab, &c)))
                break;
            if (lab_one_kernel(lab, what, "the blocks' sums meet in *result by atomicAdd, in the one kernel: no "
                                          "second kernel to add them (the launch zeroes *result with "
                                          "cudaMemsetAsync, not a kernel)"))
                break;
            if (lab_check_floats(lab, what, &got, &want_float, 1, 0, count * FLOAT_ROUNDING, why)) {
                if (got < want)
                    lab_hint(lab, LOST_UPDATES);
                break;
            }
            if (n < 1000000)
                break;
        }
        if (stopped)
            break;
    }
    free(x), free(y);
}

/* The timed runs at the largest size. Before each, the judge draws new x and y, computes their dot
 * product from the seed (dot_on_gpu), poisons the result and, last, writes x and y whole into the
 * buffers the runner reads. */
static void time_runs(struct lab *lab, int reps)
{
    const int sms = lab->dev.sms;
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    size_t bytes = n_max * sizeof(float);
    float *dev_x = (float *)lab_shared(lab, bytes), *dev_y = (float *)lab_shared(lab, bytes);
    float *result = (float *)lab_shared(lab, sizeof(float));
    double count = roundings(n_max, sms);
    char why[128];
    snprintf(why, sizeof why, "%.0f roundings an element's product goes through, each off by 2^-24", count);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_x);
    lab_use(&c, dev_y);
    lab_int(&c, n_max);
    lab_use(&c, result);
    lab_int(&c, sms);
    static struct lab_sample sample;
    sample.output = result, sample.size = 4, sample.n = 1;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    float last = NAN;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        float want = (float)dot_on_gpu(n_max, s);
        lab_poison(result, sizeof(float));  /* the statement's launch zeroes it */
        lab_sample_draw(lab, &sample);
        struct range rx = range_of(s, 0), ry = range_of(s, 1);
        lab_fill_floats(dev_x, n_max, s, X_STREAM, rx.low, rx.high);  /* every element, just before the call */
        lab_fill_floats(dev_y, n_max, s, Y_STREAM, ry.low, ry.high);
        struct spikes p = spikes_of(s, n_max);
        for (int k = 0; k < p.count; k++) {
            float v = x_at(s, p.at[k], rx, &p);
            CUDA_CHECK(cudaMemcpy(dev_x + p.at[k], &v, sizeof v, cudaMemcpyHostToDevice));
        }
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        float got = lab_sample_float(&sample, 0);
        char what[32];
        snprintf(what, sizeof what, "timed run %d", clock.run + 1);
        if (lab_check_floats(lab, what, &got, &want, 1, 0, count * FLOAT_ROUNDING, why)) {
            if (got == last)
                lab_hint(lab, "the result is the run's before, although x and y were drawn afresh since: each run "
                              "must use the x and y it is given");
            else if (got < want)
                lab_hint(lab, LOST_UPDATES);
            break;
        }
        last = got;
    }
    if (!lab->failures) {
        printf("  every timed run's result was right, with x and y drawn afresh before each run\n");
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_dot: a dot product, one atomicAdd per block", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
