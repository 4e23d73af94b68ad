/* ch3_events's judge: lab_time_launches returns the mean time of one launch of the statement's kernel,
 * measured with two events; the judge times the same kernel (its own copy, built into this program) on
 * the same data with events in its own process, as the statement asks, and the two must agree.
 * - The first call is one launch, in a runner that has launched nothing yet: CUDA loads a kernel's code
 *   at its first launch in a process (lazy loading, the default since CUDA 12.2, set here for the runner
 *   whatever the environment says), so a time without a warm-up is too large there, and only there. The
 *   bound above comes from the judge's own first launch: a time larger than a warm launch by a quarter of
 *   what loading cost the judge (or by 10 us, if that is more) holds a load.
 * - The next calls time 20, 7 and 5 launches over 128, 200 and 64 MB, three calls at each size, whose
 *   median is compared with the judge's times taken around them. There a stop event not waited for (0),
 *   events on another stream (the host's queueing time, a few microseconds a launch) and a total not
 *   divided by the launches (5 to 20 times) are far off.
 * - A time must be measured, not worked out: at sizes drawn for each grade (one or two of the three,
 *   never none or all), the array is pinned host memory that the kernel reads over the host link, many
 *   times slower than the GPU's own memory (70 times on an H200, over PCIe); the call does not say which.
 *   A time modelled from the card (its memory clock and bus) is far too small there; the judge's own
 *   launches read the same host memory, so a measured time agrees.
 * Every call's array is new, from a seed of its own (lab_fresh), written by the judge on the GPU; the
 * partial sums of every call are checked against the judge's own sum of that array, so that the kernel
 * must run on the data it is given.
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
#define ARRAY_LOW 0.5f  /* the array's values: positive, so that the sums' rounding is bounded */
#define ARRAY_HIGH 1.5f
enum { CALLS = 3 };  /* calls at each size after the first: their median is compared */
enum { REFERENCE_RUNS = 11 };
/* Room above a right time for a launch's own latency, which a stream waited for between the warm-up and
 * the first event adds to a single launch. */
#define SLACK_MS 0.010

/* A size: elements, launches a call. The first is the call of a fresh runner (one launch, a small
 * array, in the GPU's memory); the others read 128, 200 and 64 MB, 20, 7 and 5 times: tens of
 * microseconds a launch from the GPU's memory, milliseconds from the host's, far more than the host takes
 * to queue one. Which of them read host memory is drawn for each grade. */
struct size {
    long long n;
    int launches;
};
static const struct size sizes[] = {{100003, 1}, {(1LL << 25) + 1, 20}, {50000017, 7}, {(1LL << 24) + 3, 5}};
enum { BIG = COUNT_OF(sizes) - 1 };  /* the sizes after the first */

/* The judge's stream, events and partial sums. */
struct timing {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    float *partial_sums;
};

/* One measure, the statement's way: a warm-up launch unless told otherwise, `launches` launches between
 * two events on one stream, the second waited for. Milliseconds a launch. */
static double measure_ms(const struct timing *t, const float *array, long long n, int blocks, int launches,
                         int warm_up)
{
    if (warm_up)
        partial_reduce<<<blocks, THREADS, 0, t->stream>>>(array, n, t->partial_sums);
    CUDA_CHECK(cudaEventRecord(t->start, t->stream));
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, t->stream>>>(array, n, t->partial_sums);
    CUDA_CHECK(cudaEventRecord(t->stop, t->stream));
    CHECK_LAUNCH();
    CUDA_CHECK(cudaEventSynchronize(t->stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    return ms / launches;
}

/* The median of `runs` measures. */
static double reference_ms(const struct timing *t, const float *array, long long n, int blocks, int launches,
                           int runs)
{
    double ms[REFERENCE_RUNS];
    for (int r = 0; r < runs; r++)
        ms[r] = measure_ms(t, array, n, blocks, launches, 1);
    return stats_of(ms, runs).median;
}

static double median(double *values, int count)
{
    return stats_of(values, count).median;
}

/* ==== The calls and their checks ==== */

/* One call of lab_time_launches(array, n, partial_sums, blocks, launches): the array is a buffer shared
 * with the runner (the GPU's memory or pinned host memory), or (shared_array NULL, under --small) a
 * buffer of n floats filled from array, on the GPU or (host) in pinned host memory; the partial sums come
 * back in partials, the time in *ms. 1 if the call failed. */
static int time_call(struct lab *lab, const float *shared_array, int host, const float *array, long long n,
                     int blocks, int launches, float *partials, float *ms)
{
    struct lab_call c;
    lab_call_start(&c);
    if (shared_array)
        lab_use(&c, shared_array);
    else if (host)
        lab_host_in(&c, array, n * sizeof(float));
    else
        lab_in(&c, array, n * sizeof(float));
    lab_int(&c, n);
    lab_out(&c, NULL, partials, blocks * sizeof(float));
    lab_int(&c, blocks);
    lab_int(&c, launches);
    lab_host_out(&c, ms, sizeof *ms);
    if (lab_run(lab, &c))
        return 1;
    /* The time is the events': the runner counts the file's calls of cudaEventElapsedTime (launches.c). A
     * time from another clock, or from a model of the card, is not the lesson, however close it comes. */
    if (lab->elapsed > 0)
        return 0;
    printf("  FAIL: your lab_time_launches returned a time it read from no CUDA event (no cudaEventElapsedTime "
           "in the call)\n");
    lab_hint(lab, "the lab times the launches with two CUDA events: record one before and one after, wait for the "
                  "second, and read the time between them with cudaEventElapsedTime");
    lab->failures++;
    return 1;
}

/* The partial sums against the judge's sum of the array: positive terms, so each is off by at most (the
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
 * mistakes. device_ms: for an array in host memory, the judge's time of the same launches on an array in
 * the GPU's memory (else 0). 1 if out of bounds. */
static int check_time(struct lab *lab, const char *what, double got, double want, double low, double high,
                      double slack, int launches, int first, double device_ms)
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
    else if (device_ms > 0 && got < low * want && got >= low * device_ms && got <= high * device_ms + slack)
        lab_hint(lab, "this call's array was in host memory, which the kernel reads over the host link, many "
                      "times slower, and your time is about that of an array in the GPU's memory. Measure it: both "
                      "events on the kernels' stream, the second waited for (a time worked out from the card, its "
                      "memory clock and bus, fits no such call)");
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
    /* Which sizes after the first read host memory: a bit each, drawn from the judge's secret stream
     * before any call, never none of them nor all (1 to 6 of the 8 patterns). */
    int host_sizes = 1 + (int)(lab_fresh(&lab) % 6);
    lab_big_sizes(&lab, BIG);  /* --small: the first, and one of the others drawn for this grade */
    long long n_max = 0, n_host = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k].n;
        n_max = n > n_max ? n : n_max;
        if (k > 0 && host_sizes >> (k - 1) & 1)
            n_host = n > n_host ? n : n_host;
    }
    size_t bytes = n_max * sizeof(float);
    int most_blocks = 32 * lab.dev.sms;
    float *partials = (float *)host_alloc(most_blocks * sizeof(float));
    /* --small (a sanitizer): each call sends its array, made on the host. Else the runner's arrays are
     * made once and shared (three calls at 64 to 200 MB): one in the GPU's memory, one in pinned host
     * memory, which the judge maps as well so that its own launches read the very same memory. */
    float *array = NULL, *shared_array = NULL, *host_array = NULL, *host_on_gpu = NULL;
    if (lab.small) {
        array = (float *)host_alloc(bytes);
    } else {
        shared_array = (float *)lab_shared(&lab, bytes);
        host_array = (float *)lab_shared_host(&lab, n_host * sizeof(float));
        CUDA_CHECK(cudaHostRegister(host_array, n_host * sizeof(float), cudaHostRegisterMapped));
        CUDA_CHECK(cudaHostGetDevicePointer((void **)&host_on_gpu, host_array, 0));
    }
    struct timing t;
    CUDA_CHECK(cudaStreamCreateWithFlags(&t.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&t.start));
    CUDA_CHECK(cudaEventCreate(&t.stop));
    float *own = (float *)lab_device_alloc(bytes);  /* the judge's copy of the array in the GPU's memory */
    t.partial_sums = (float *)lab_device_alloc(most_blocks * sizeof(float));

    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k].n;
        if (lab_skip(&lab, n))
            continue;
        int launches = sizes[k].launches, first = k == 0, host = k > 0 && host_sizes >> (k - 1) & 1;
        int blocks = (int)(ceil_div(n, THREADS) < most_blocks ? ceil_div(n, THREADS) : most_blocks);
        char what[128];
        snprintf(what, sizeof what, "n = %lld, %d launch%s%s%s", n, launches, launches > 1 ? "es" : "",
                 first ? " (the first call)" : ", median of 3 calls", host ? ", the array in host memory" : "");
        if (lab.small) {  /* under a sanitizer every kernel is slowed: the time means nothing, the sums still do */
            unsigned long long seed = lab_fresh(&lab);
            double sum = 0.0;
            for (long long i = 0; i < n; i++)
                sum += array[i] = lab_value(seed, ARRAY_STREAM, i, ARRAY_LOW, ARRAY_HIGH);
            float ms;
            if (time_call(&lab, NULL, host, array, n, blocks, launches, partials, &ms))
                break;
            if (!check_sums(&lab, what, partials, blocks, n, sum))
                printf("  %s: the partial sums are right (the time is not checked under --small)\n", what);
            continue;
        }
        /* The call's array, where the runner reads it, and the array the judge's own launches read: its own
         * copy in the GPU's memory, or the same host memory. */
        float *theirs = host ? host_array : shared_array;
        const float *mine = host ? host_on_gpu : own;
        double got[CALLS], want[CALLS + 1];
        int calls = first ? 1 : CALLS, stopped = 0;
        double cold = 0.0, warm = 0.0;
        for (int c = 0; c < calls && !stopped; c++) {
            /* A new array for each call, from a seed of its own, in both places; its sum taken by the judge
             * before the call, from memory the runner never sees (or, in host memory, before it runs). */
            unsigned long long seed = lab_fresh(&lab);
            lab_fill_floats(host ? host_on_gpu : shared_array, n, seed, ARRAY_STREAM, ARRAY_LOW, ARRAY_HIGH);
            if (!host)
                lab_fill_floats(own, n, seed, ARRAY_STREAM, ARRAY_LOW, ARRAY_HIGH);
            double sum = lab_sum_on_gpu(mine, n);
            if (first) {
                /* The judge's own first launch of the kernel (nothing of this program's own was launched
                 * before), then its warm ones. */
                cold = measure_ms(&t, mine, n, blocks, 1, 0);
                warm = reference_ms(&t, mine, n, blocks, 1, REFERENCE_RUNS);
            } else {
                /* The judge's times around each call, so that other work on the GPU weighs on both sides. */
                want[c] = reference_ms(&t, mine, n, blocks, launches, 1);
            }
            float ms;
            stopped = time_call(&lab, theirs, host, NULL, n, blocks, launches, partials, &ms) ||
                      check_sums(&lab, what, partials, blocks, n, sum);
            got[c] = ms;
        }
        if (stopped)
            break;
        if (first) {
            printf("  the judge's own first launch of the kernel took %.4f ms, its later ones %.4f ms: CUDA loads a "
                   "kernel's code at its first launch in a process\n", cold, warm);
            double load = cold > warm ? cold - warm : 0.0;
            check_time(&lab, what, got[0], warm, 0.5, 1.5, load / 4 > SLACK_MS ? load / 4 : SLACK_MS, launches, 1,
                       0.0);
            continue;
        }
        want[CALLS] = reference_ms(&t, mine, n, blocks, launches, 1);
        /* For the hint of a time worked out, not measured: the same launches on the GPU's own memory. */
        double device_ms = host ? reference_ms(&t, own, n, blocks, launches, 1) : 0.0;
        /* Wide bounds: the mistakes they are for are 5 times off or more; other work on the GPU (the tests
         * grade four labs at once) stretches a right time, or the judge's, less than that. */
        check_time(&lab, what, median(got, CALLS), median(want, CALLS + 1), 0.4, 3.0, SLACK_MS, launches, 0,
                   device_ms);
    }
    CUDA_CHECK(cudaStreamDestroy(t.stream));
    CUDA_CHECK(cudaEventDestroy(t.start));
    CUDA_CHECK(cudaEventDestroy(t.stop));
    CUDA_CHECK(cudaFree(own));
    CUDA_CHECK(cudaFree(t.partial_sums));
    if (host_array)
        CUDA_CHECK(cudaHostUnregister(host_array));
    free(array), free(partials);
    return lab_end(&lab);
}
