/* ch3_graph's judge: the student's lab_replay runs `replays` steps of the statement's queue_step (32 tiny
 * kernels on 8 streams, forked and joined by events), and a must then equal the CPU's, exactly (32-bit
 * arithmetic that wraps around: the same on both). Arrays of 1 to 1000 elements, around a warp and a
 * block, and 1 to 100 steps; a wrong result is compared with the states one step before and after, and
 * with the input, which name the usual mistakes (a capture does not run what it records).
 * Then timed: 200 steps on arrays of 1000 elements, where launching is all there is. The limit is the
 * judge's own graph of the same step, captured, instantiated, launched 200 times and destroyed in this
 * process, timed by the same clock: one-by-one launches, which give the same result, run far below it.
 * Every call's a comes from a seed of its own (lab_fresh), all 32 bits of each element: each check's, the
 * judge's own graph's, and each timed run's, the warm-up too, which the judge writes on the GPU before the
 * run (lab_fill_uints) while b is poisoned, so that nothing a run left behind is the next run's answer;
 * a sample of a is checked after each against the same steps on the CPU, from the same values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

#define STREAMS 8   /* the statement's */
#define ROUNDS 2
#define THREADS 256

/* ==== The statement's kernels and step, the same code: the judge's own graph is made of them ==== */

__global__ void neighbours(const unsigned *a, unsigned *b, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        b[i] = a[i] + a[i + 1 < m ? i + 1 : 0];
}

__global__ void mix(const unsigned *b, unsigned *a, int m, unsigned salt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        a[i] = (b[i] * 2654435761u) ^ (b[i > 0 ? i - 1 : m - 1] + salt);
}

static void queue_step(unsigned *a, unsigned *b, int m, cudaStream_t streams[STREAMS], cudaEvent_t events[STREAMS])
{
    int blocks = (m + THREADS - 1) / THREADS;
    CUDA_CHECK(cudaEventRecord(events[0], streams[0]));
    for (int k = 1; k < STREAMS; k++)
        CUDA_CHECK(cudaStreamWaitEvent(streams[k], events[0], 0));
    for (int k = 0; k < STREAMS; k++) {
        unsigned *ak = a + (long long)k * m, *bk = b + (long long)k * m;
        for (int round = 0; round < ROUNDS; round++) {
            neighbours<<<blocks, THREADS, 0, streams[k]>>>(ak, bk, m);
            mix<<<blocks, THREADS, 0, streams[k]>>>(bk, ak, m, (unsigned)(k * ROUNDS + round));
        }
    }
    CHECK_LAUNCH();
    for (int k = 1; k < STREAMS; k++) {
        CUDA_CHECK(cudaEventRecord(events[k], streams[k]));
        CUDA_CHECK(cudaStreamWaitEvent(streams[0], events[k], 0));
    }
}

/* The solution's way, in the judge's process: capture, instantiate, launch `replays` times, wait,
 * destroy. Milliseconds by the host's clock, as the judge times the student's call. */
static double own_graph_ms(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                           cudaEvent_t events[STREAMS])
{
    double t0 = wall_seconds();
    cudaGraph_t graph;
    cudaGraphExec_t step;
    CUDA_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    queue_step(a, b, m, streams, events);
    CUDA_CHECK(cudaStreamEndCapture(streams[0], &graph));
    CUDA_CHECK(cudaGraphInstantiate(&step, graph, 0));
    for (int r = 0; r < replays; r++)
        CUDA_CHECK(cudaGraphLaunch(step, streams[0]));
    CUDA_CHECK(cudaStreamSynchronize(streams[0]));
    CUDA_CHECK(cudaGraphExecDestroy(step));
    CUDA_CHECK(cudaGraphDestroy(graph));
    return (wall_seconds() - t0) * 1e3;
}

/* ==== The CPU's steps ==== */

/* One step, in the kernels' 32-bit arithmetic (unsigned wraps around as on the GPU). */
static void step_cpu(unsigned *a, unsigned *b, int m)
{
    for (int k = 0; k < STREAMS; k++) {
        unsigned *ak = a + (long long)k * m, *bk = b + (long long)k * m;
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < m; i++)
                bk[i] = ak[i] + ak[i + 1 < m ? i + 1 : 0];
            for (int i = 0; i < m; i++)
                ak[i] = (bk[i] * 2654435761u) ^ (bk[i > 0 ? i - 1 : m - 1] + (unsigned)(k * ROUNDS + round));
        }
    }
}

enum { STREAM_A = 1 };  /* a call's seed: a's values */

/* STREAMS x m values from a call's seed, all 32 bits, as lab_fill_uints(a, elements, seed, STREAM_A, 0)
 * writes them on the GPU. */
static void fill(unsigned *a, long long elements, unsigned long long seed)
{
    for (long long i = 0; i < elements; i++)
        a[i] = (unsigned)lab_bits(seed, STREAM_A, (unsigned long long)i);
}

/* After a wrong result: the state it equals, if it is one the usual mistakes leave. */
static void hint_steps(struct lab *lab, const unsigned *got, const unsigned *input, const unsigned *one,
                       const unsigned *before, const unsigned *after, size_t bytes, int replays)
{
    if (!memcmp(got, input, bytes))
        lab_hint(lab, "a still holds its input: no step ran. A capture records the work without running it: "
                      "launch the instantiated graph, `replays` times");
    else if (replays > 1 && !memcmp(got, before, bytes))
        lab_hint(lab, "a holds what %d steps give, one fewer than asked: the capture records the step, it does not "
                      "run it, so the graph must be launched `replays` times", replays - 1);
    else if (!memcmp(got, after, bytes))
        lab_hint(lab, "a holds what %d steps give, one more than asked: was the step also queued outside the "
                      "graph?", replays + 1);
    else if (replays > 2 && !memcmp(got, one, bytes))
        lab_hint(lab, "a holds what one step gives: launch the graph `replays` times");
    else
        lab_hint(lab, "a holds none of the states the steps go through: is every stream's work in the graph (a "
                      "capture of streams[0] with queue_step between its beginning and its end), and is the "
                      "graph launched on streams[0]?");
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_graph: a step of small kernels captured once, replayed", &reps);
    /* Around a warp and a block, and 1 to 100 steps; under --small (a sanitizer slows every launch) up
     * to 7 steps. */
    const struct { int m, replays; } cases[] = {{1, 1}, {31, 3}, {32, 2}, {33, 2}, {255, 5}, {257, 7}, {1000, 100}};
    const int timed_m = 1000, timed_replays = 200, max_m = 1000;
    const long long max_elements = (long long)STREAMS * max_m;
    size_t max_bytes = max_elements * sizeof(unsigned);
    unsigned *input = (unsigned *)host_alloc(max_bytes), *got = (unsigned *)host_alloc(max_bytes);
    unsigned *want = (unsigned *)host_alloc(max_bytes), *scratch = (unsigned *)host_alloc(max_bytes);
    unsigned *one = (unsigned *)host_alloc(max_bytes), *before = (unsigned *)host_alloc(max_bytes);
    unsigned *after = (unsigned *)host_alloc(max_bytes);
    for (int k = 0; k < COUNT_OF(cases) && !lab.time; k++) {
        int m = cases[k].m, replays = cases[k].replays;
        if (lab.small && replays > 7)
            continue;
        long long elements = (long long)STREAMS * m;
        size_t bytes = elements * sizeof(unsigned);
        fill(input, elements, lab_fresh(&lab));
        /* The states after 1, replays - 1, replays and replays + 1 steps. */
        memcpy(after, input, bytes);
        for (int step = 1; step <= replays + 1; step++) {
            step_cpu(after, scratch, m);
            if (step == 1)
                memcpy(one, after, bytes);
            if (step == replays - 1)
                memcpy(before, after, bytes);
            if (step == replays)
                memcpy(want, after, bytes);
        }
        struct lab_call c;
        lab_call_start(&c);
        lab_out(&c, input, got, bytes);  /* a: the input in, the result back */
        lab_scratch(&c, bytes);          /* b: poisoned */
        lab_int(&c, m);
        lab_int(&c, replays);
        if (lab_run(&lab, &c))
            break;
        char what[64];
        snprintf(what, sizeof what, "m = %d, %d step%s", m, replays, replays > 1 ? "s" : "");
        /* Rows are the arrays, columns their elements. */
        if (lab_check_uints(&lab, what, got, want, elements, m))
            hint_steps(&lab, got, input, one, before, after, bytes, replays);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* ==== The timed runs ==== */
    long long elements = (long long)STREAMS * timed_m;
    size_t bytes = elements * sizeof(unsigned);
    /* The limit: the judge's own graph of the same work, on its own buffers, streams and events, checked
     * once against the CPU (it is the course's code), then the median of 11. */
    cudaStream_t streams[STREAMS];
    cudaEvent_t events[STREAMS];
    for (int k = 0; k < STREAMS; k++) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&events[k], cudaEventDisableTiming));
    }
    unsigned *own_a = (unsigned *)lab_device_alloc(bytes), *own_b = (unsigned *)lab_device_alloc(bytes);
    unsigned long long seed = lab_fresh(&lab);
    lab_fill_uints(own_a, elements, seed, STREAM_A, 0);
    fill(input, elements, seed);
    own_graph_ms(own_a, own_b, timed_m, timed_replays, streams, events);
    CUDA_CHECK(cudaMemcpy(got, own_a, bytes, cudaMemcpyDeviceToHost));
    memcpy(want, input, bytes);
    for (int step = 0; step < timed_replays; step++)
        step_cpu(want, scratch, timed_m);
    if (memcmp(got, want, bytes)) {
        printf("  the judge's own graph gave a wrong result: the course's fault, not yours\n");
        lab.failures++;
        return lab_end(&lab);
    }
    double own[11];
    for (int r = 0; r < COUNT_OF(own); r++)
        own[r] = own_graph_ms(own_a, own_b, timed_m, timed_replays, streams, events);
    double own_ms = stats_of(own, COUNT_OF(own)).median;
    /* 16 bytes an element a round (neighbours reads a and writes b, mix reads b and writes a). */
    double amount = 16.0 * elements * ROUNDS * timed_replays;
    printf("  the judge's own graph: %d steps of %d kernels in %.3f ms (median of %d)\n", timed_replays,
           STREAMS * ROUNDS * 2, own_ms, COUNT_OF(own));

    unsigned *dev_a = (unsigned *)lab_shared(&lab, bytes), *dev_b = (unsigned *)lab_shared(&lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_a);
    lab_use(&c, dev_b);
    lab_int(&c, timed_m);
    lab_int(&c, timed_replays);
    static struct lab_sample s;
    s.output = dev_a, s.size = 4, s.n = elements;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        /* New input from this run's seed, written by the judge, and its result on the CPU, outside the
         * clock; b poisoned. */
        seed = lab_fresh(&lab);
        lab_fill_uints(dev_a, elements, seed, STREAM_A, 0);
        lab_poison(dev_b, bytes);
        fill(input, elements, seed);
        memcpy(want, input, bytes);
        for (int step = 0; step < timed_replays; step++)
            step_cpu(want, scratch, timed_m);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            got[k] = lab_sample_uint(&s, k);
            one[k] = want[s.index[k]];  /* one's host copy is free now: it holds the sample's want */
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_uints(&lab, what, &s, got, one, timed_m))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's a was right on %d elements drawn afresh each run, from new values each run\n",
               s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), amount, "GB/s", amount / (own_ms * 1e-3) / 1e9,
                   "of the judge's own graph");
    }
    for (int k = 0; k < STREAMS; k++) {
        CUDA_CHECK(cudaStreamDestroy(streams[k]));
        CUDA_CHECK(cudaEventDestroy(events[k]));
    }
    CUDA_CHECK(cudaFree(own_a));
    CUDA_CHECK(cudaFree(own_b));
    free(input), free(got), free(want), free(scratch), free(one), free(before), free(after);
    return lab_end(&lab);
}
