/* ch3_events's judge: lab_time_launches returns the mean time of one launch of the statement's kernel,
 * measured with two events; the judge times the same kernel (its own copy, built into this program) on
 * the same data with events in its own process, as the statement asks, and the two must agree.
 * - The first call is one launch, in a runner that has launched nothing yet: CUDA loads a kernel's code
 *   at its first launch in a process (lazy loading, the default since CUDA 12.2, set here for the runner
 *   whatever the environment says), so a time without a warm-up is too large there, and only there. The
 *   bound above comes from the judge's own first launch: a time larger than a warm launch by a quarter of
 *   what loading cost the judge (or by 10 us, if that is more) holds a load.
 * - The next calls time 20 and 7 launches over 128 and 200 MB, tens of microseconds each, three calls at
 *   each size, whose median is compared with the judge's times taken around them. There a stop event not
 *   waited for (0), events on another stream (the host's queueing time, a few microseconds a launch) and
 *   a total not divided by the launches (7 or 20 times) are far off.
 * The last launch's partial sums are checked, so that the kernel must run on the data it is given.
 * Without warm-up mistakes, only other work on the GPU moves a right time: the bounds leave room for it.
 * Not timed itself (lab_untimed): its answer is a time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

#define THREADS 256  /* the statement's */

/* ==== The statement's kernel, the same code: the judge's times are of this one ==== */

__global__ void partial_reduce(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS];
    int tid = threadIdx.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x] = s_block[0];
}

/* ==== The judge's own times ==== */

enum { ARRAY_STREAM = 1 };
enum { CALLS = 3 };  /* calls at each size after the first: their median is compared */
enum { REFERENCE_RUNS = 11 };
/* Room above a right time for a launch's own latency, which a stream waited for between the warm-up and
 * the first event adds to a single launch. */
#define SLACK_MS 0.010

/* A size: elements, launches a call. The first is the call of a fresh runner (one launch, a small
 * array); the others read 128 and 200 MB, 20 and 7 times: tens of microseconds a launch, far more than
 * the host takes to queue one. */
struct size {
    long long n;
    int launches;
};
static const struct size sizes[] = {{100003, 1}, {(1LL << 25) + 1, 20}, {50000017, 7}};

/* The judge's stream and events, and its own copy of the array. */
struct timing {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    const float *array;
    float *partial_sums;
};

/* One measure, the statement's way: a warm-up launch unless told otherwise, `launches` launches between
 * two events on one stream, the second waited for. Milliseconds a launch. */
static double measure_ms(const struct timing *t, long long n, int blocks, int launches, int warm_up)
{
    if (warm_up)
        partial_reduce<<<blocks, THREADS, 0, t->stream>>>(t->array, n, t->partial_sums);
    CUDA_CHECK(cudaEventRecord(t->start, t->stream));
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, t->stream>>>(t->array, n, t->partial_sums);
    CUDA_CHECK(cudaEventRecord(t->stop, t->stream));
    CHECK_LAUNCH();
    CUDA_CHECK(cudaEventSynchronize(t->stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    return ms / launches;
}

/* The median of `runs` measures. */
static double reference_ms(const struct timing *t, long long n, int blocks, int launches, int runs)
{
    double ms[REFERENCE_RUNS];
    for (int r = 0; r < runs; r++)
        ms[r] = measure_ms(t, n, blocks, launches, 1);
    return stats_of(ms, runs).median;
}

static double median(double *values, int count)
{
    return stats_of(values, count).median;
}

/* ==== The calls and their checks ==== */

/* One call of lab_time_launches(array, n, partial_sums, blocks, launches): the array is the runner's
 * shared copy, or (shared_array NULL) a buffer of n floats filled from array; the partial sums come back
 * in partials, the time in *ms. 1 if the call failed. */
static int time_call(struct lab *lab, const float *shared_array, const float *array, long long n, int blocks,
                     int launches, float *partials, float *ms)
{
    struct lab_call c;
    lab_call_start(&c);
    if (shared_array)
        lab_use(&c, shared_array);
    else
        lab_in(&c, array, n * sizeof(float));
    lab_int(&c, n);
    lab_out(&c, NULL, partials, blocks * sizeof(float));
    lab_int(&c, blocks);
    lab_int(&c, launches);
    lab_host_out(&c, ms, sizeof *ms);
    return lab_run(lab, &c);
}

/* The last launch's partial sums against the CPU's sum: positive terms, so each is off by at most (the
 * additions of a thread + the tree's 8) roundings. 1 if wrong. */
static int check_sums(struct lab *lab, const char *what, const float *partials, int blocks, long long n, double want)
{
    double got = 0.0;
    for (int b = 0; b < blocks; b++)
        got += partials[b];
    long long threads = (long long)blocks * THREADS;
    double tolerance = (ceil_div(n, threads) + 8) * FLOAT_ROUNDING;
    if (fabs(got - want) <= tolerance * want)  /* NaN (poison) is wrong */
        return 0;
    printf("  %s: FAIL, the partial sums add up to %.9g, the array to %.9g (tolerance %.1e relative)\n", what, got,
           want, tolerance);
    if (isnan(got))
        lab_hint(lab, "the partial sums still hold the poison they were filled with: launch partial_reduce on the "
                      "array you are given (the statement's launch), and time those launches");
    lab->failures++;
    return 1;
}

/* A returned time against the judge's, within [low x want, high x want + slack]; hints for the known
 * mistakes. 1 if out of bounds. */
static int check_time(struct lab *lab, const char *what, double got, double want, double low, double high,
                      double slack, int launches, int first)
{
    int right = isfinite(got) && got >= low * want && got <= high * want + slack;
    printf("  %s: %s, %.4f ms a launch; the judge's: %.4f ms (bounds %.4f to %.4f ms)\n", what,
           right ? "PASS" : "FAIL", got, want, low * want, high * want + slack);
    if (right)
        return 0;
    lab->failures++;
    if (!isfinite(got) || got <= 0)
        lab_hint(lab, "not a time (%g): is the time read once the GPU has passed the second event "
                      "(cudaEventSynchronize), and are both events made and recorded?", got);
    else if (got < low * want)
        lab_hint(lab, "far too small: the events did not hold the kernels' work. Record both on the stream the "
                      "kernels run on (an event on stream 0 is stamped at once, while the kernels run on another "
                      "stream), and wait for the second one (cudaEventSynchronize) before reading the time");
    else if (launches > 1 && got > 0.5 * launches * want && got < 2.0 * launches * want)
        lab_hint(lab, "about %d times the judge's: the time of all %d launches, not of one (divide by launches)",
                 launches, launches);
    else if (first)
        lab_hint(lab, "too large for a single launch, the first of a fresh process: the first launch of a kernel "
                      "loads its code, so launch it once before the first event (a warm-up)");
    else
        lab_hint(lab, "too large: something besides the launches was timed (a wait, or the warm-up, between the "
                      "two events?)");
    return 1;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_events: a kernel timed with two CUDA events", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lab's answer is a time, checked against the judge's in step 1");
        return lab_end(&lab);
    }
    /* The runner is started below, after this: it loads each kernel at its first launch, as CUDA does by
     * default since 12.2, whatever this machine's environment says. */
    setenv("CUDA_MODULE_LOADING", "LAZY", 1);
    int count = 0;  /* the sizes this run takes: --small (a sanitizer) only the first */
    while (count < COUNT_OF(sizes) && !lab_skip(&lab, sizes[count].n))
        count++;
    long long n_max = 0;
    for (int k = 0; k < count; k++)
        n_max = sizes[k].n > n_max ? sizes[k].n : n_max;
    size_t bytes = n_max * sizeof(float);
    float *array = (float *)host_alloc(bytes);
    for (long long i = 0; i < n_max; i++)
        array[i] = lab_uniform(lab.seed, ARRAY_STREAM, (unsigned long long)i) + 0.5f;  /* positive: bounded error */
    double sum[COUNT_OF(sizes)] = {0};
    for (int k = 0; k < count; k++)
        for (long long i = 0; i < sizes[k].n; i++)
            sum[k] += array[i];
    int most_blocks = 32 * lab.dev.sms;
    float *partials = (float *)host_alloc(most_blocks * sizeof(float));
    /* The runner's copy of the array, made once and shared (three calls at 128 and 200 MB), except under
     * --small, where the calls send their small arrays. */
    float *shared_array = NULL;
    if (!lab.small) {
        shared_array = (float *)lab_shared(&lab, bytes);
        CUDA_CHECK(cudaMemcpy(shared_array, array, bytes, cudaMemcpyHostToDevice));
    }
    struct timing t;
    CUDA_CHECK(cudaStreamCreateWithFlags(&t.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&t.start));
    CUDA_CHECK(cudaEventCreate(&t.stop));
    t.array = (const float *)lab_device_alloc(bytes);
    t.partial_sums = (float *)lab_device_alloc(most_blocks * sizeof(float));
    CUDA_CHECK(cudaMemcpy((float *)t.array, array, bytes, cudaMemcpyHostToDevice));

    for (int k = 0; k < count; k++) {
        long long n = sizes[k].n;
        int launches = sizes[k].launches, first = k == 0;
        int blocks = (int)(ceil_div(n, THREADS) < most_blocks ? ceil_div(n, THREADS) : most_blocks);
        char what[96];
        snprintf(what, sizeof what, "n = %lld, %d launch%s%s", n, launches, launches > 1 ? "es" : "",
                 first ? " (the first call)" : ", median of 3 calls");
        if (lab.small) {  /* under a sanitizer every kernel is slowed: the time means nothing, the sums still do */
            float ms;
            if (time_call(&lab, shared_array, array, n, blocks, launches, partials, &ms))
                break;
            if (!check_sums(&lab, what, partials, blocks, n, sum[k]))
                printf("  %s: the partial sums are right (the time is not checked under --small)\n", what);
            continue;
        }
        if (first) {
            /* The judge's own first launch of the kernel (nothing of this program's own was launched
             * before), then its warm ones. */
            double cold = measure_ms(&t, n, blocks, 1, 0);
            double want = reference_ms(&t, n, blocks, 1, REFERENCE_RUNS);
            float got;
            if (time_call(&lab, shared_array, array, n, blocks, launches, partials, &got))
                break;
            printf("  the judge's own first launch of the kernel took %.4f ms, its later ones %.4f ms: CUDA loads a "
                   "kernel's code at its first launch in a process\n", cold, want);
            double load = cold > want ? cold - want : 0.0;
            check_time(&lab, what, got, want, 0.5, 1.5, load / 4 > SLACK_MS ? load / 4 : SLACK_MS, launches, 1);
        } else {
            /* The judge's times around each call, so that other work on the GPU weighs on both sides. */
            double got[CALLS], want[CALLS + 1];
            int stopped = 0;
            for (int c = 0; c < CALLS && !stopped; c++) {
                want[c] = reference_ms(&t, n, blocks, launches, 1);
                float ms;
                stopped = time_call(&lab, shared_array, array, n, blocks, launches, partials, &ms);
                got[c] = ms;
            }
            if (stopped)
                break;
            want[CALLS] = reference_ms(&t, n, blocks, launches, 1);
            /* Wide bounds: the mistakes they are for are 7 times off or more; other work on the GPU (the tests
             * grade four labs at once) stretches a right time, or the judge's, less than that. */
            check_time(&lab, what, median(got, CALLS), median(want, CALLS + 1), 0.4, 3.0, SLACK_MS, launches, 0);
        }
        check_sums(&lab, what, partials, blocks, n, sum[k]);
    }
    CUDA_CHECK(cudaStreamDestroy(t.stream));
    CUDA_CHECK(cudaEventDestroy(t.start));
    CUDA_CHECK(cudaEventDestroy(t.stop));
    CUDA_CHECK(cudaFree((float *)t.array));
    CUDA_CHECK(cudaFree(t.partial_sums));
    free(array), free(partials);
    return lab_end(&lab);
}
