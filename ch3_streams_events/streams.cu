/* streams.cu: Part 3, Examples 3.2 and 3.3, independent work in many streams versus one.
 * Normalising ten arrays is ten independent jobs. Queued on one stream they run one after another;
 * on ten streams, one job's copies can overlap another's kernels and the copies in the two directions
 * can overlap each other (the GPU has separate copy engines), so the run approaches the time the bytes
 * need to cross the bus. This program times both in one run, against that transfer bound, and a third
 * way: ten streams whose copies in are chained, each waiting for the one before (see queue_all).
 *   make ch3 && ./ch3_streams_events/streams              (10 arrays of 10,000,000 float32)
 *   ./ch3_streams_events/streams --streams 2
 *   ./ch3_streams_events/streams --pageable               (without pinned memory: no overlap)
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvtx3/nvToolsExt.h>  /* NVTX: named ranges that Nsight Systems shows on its timeline (header only) */

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8 };
/* Arrays and streams: the fixed arrays of jobs, streams and events hold at most this many. */
enum { MAX_ARRAYS = 64, MAX_STREAMS = 64 };

/* ==== Kernels: the same three as normalize.cu's (tests/copies.t keeps them equal) ==== */

/* Chapter 2's better reduction, 256 threads a block: one partial sum per block. */
__global__ void partial_reduce(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = THREADS_PER_BLOCK / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x] = s_block[0];
}

/* One thread of one block adds the partial sums into a one-element array, so that the sum never
 * leaves the GPU: the next kernel on the stream reads it from there. */
__global__ void single_thread_sum(const float *partial_sums, int count, float *sum)
{
    float s = 0.0f;
    for (int i = 0; i < count; i++)
        s += partial_sums[i];
    sum[0] = s;
}

__global__ void divide_by(float *array, long long n, const float *sum)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        array[i] /= sum[0];
}

/* ==== Host helpers ==== */

struct job {
    float *host_in, *host_out;           /* array i's input (filled with i + 1) and its result */
    float *dev_a, *dev_partial_sums, *dev_sum;
};

/* Queues one array's whole normalisation on a stream: nothing here waits. If `after` is given, the
 * copy in first waits for that event; `copied_in` is recorded once this array's copy in is done. */
static void queue_normalize(struct job *j, long long n, int blocks, cudaStream_t s, cudaEvent_t after,
                            cudaEvent_t copied_in)
{
    size_t bytes = n * sizeof(float);
    if (after)
        CUDA_CHECK(cudaStreamWaitEvent(s, after, 0));
    CUDA_CHECK(cudaMemcpyAsync(j->dev_a, j->host_in, bytes, cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaEventRecord(copied_in, s));
    partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, s>>>(j->dev_a, n, j->dev_partial_sums);
    CHECK_LAUNCH();
    single_thread_sum<<<1, 1, 0, s>>>(j->dev_partial_sums, blocks, j->dev_sum);
    CHECK_LAUNCH();
    divide_by<<<blocks, THREADS_PER_BLOCK, 0, s>>>(j->dev_a, n, j->dev_sum);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(j->host_out, j->dev_a, bytes, cudaMemcpyDeviceToHost, s));
}

/* Events that order the streams' work; none of them is timed. */
struct marks {
    cudaEvent_t done[MAX_STREAMS];      /* stream k's work is done */
    cudaEvent_t copied_in[MAX_ARRAYS];  /* array i is on the GPU */
};

/* Queues every job, job i on stream i % count, after a fork: all streams wait for `start`, an event
 * recorded on stream 0 (the timer's start, when timed).
 *
 * ordered = 0 is the article's way: every stream's copy in may start at once. The copy engines then
 * run several copies in side by side, sharing the bus, so all arrays arrive late, near the end, and
 * the copies out cannot start early. ordered = 1 chains the copies in with events, each waiting for
 * the previous one: array 0 is in after a tenth of the time and goes back out while array 2 comes in,
 * a pipeline that keeps both directions of the bus busy. */
static void queue_all(struct job *jobs, int arrays, long long n, int blocks, cudaStream_t *streams, int count,
                      int ordered, cudaEvent_t start, struct marks *m)
{
    for (int k = 1; k < count; k++)
        CUDA_CHECK(cudaStreamWaitEvent(streams[k], start, 0));
    for (int i = 0; i < arrays; i++)
        queue_normalize(&jobs[i], n, blocks, streams[i % count], ordered && i > 0 ? m->copied_in[i - 1] : NULL,
                        m->copied_in[i]);
}

/* The join: stream 0 waits for an event recorded at the end of each other stream, so that it ends after
 * all the work (and so does the timer's stop, recorded on it next). */
static void join(cudaStream_t *streams, int count, struct marks *m)
{
    for (int k = 1; k < count; k++) {
        CUDA_CHECK(cudaEventRecord(m->done[k], streams[k]));
        CUDA_CHECK(cudaStreamWaitEvent(streams[0], m->done[k], 0));
    }
}

/* Each output must sum to 1 (see normalize.cu for the bound) with all its elements equal; returns 1 if
 * not. */
static int check_outputs(const struct job *jobs, int arrays, long long n, int blocks, const char *what)
{
    long long threads = (long long)blocks * THREADS_PER_BLOCK;
    double tolerance = (ceil_div(n, threads) + TREE_ADDITIONS + blocks + 1) * FLOAT_ROUNDING, worst = 0.0;
    long long unequal = 0;
    for (int i = 0; i < arrays; i++) {
        double sum = 0.0;
        for (long long e = 0; e < n; e++) {
            sum += jobs[i].host_out[e];
            unequal += jobs[i].host_out[e] != jobs[i].host_out[0];
        }
        worst = worst_of(worst, relative_error(sum, 1.0));
    }
    return check(worst <= tolerance && unequal == 0, "%s: %d arrays sum to 1 within %.1e (worst %.1e), %lld elements "
                 "unlike their array's first", what, arrays, tolerance, worst, unequal);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 10000000;
    int arrays = 10, stream_count = 10, reps = 5, pageable = 0;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e9, "elements per array (default 10000000, the article's)"},
        {"--arrays", CLI_INT, &arrays, 1, MAX_ARRAYS, "number of arrays (default 10)"},
        {"--streams", CLI_INT, &stream_count, 1, MAX_STREAMS, "streams for the many-stream run (default 10)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed runs of each (default 5)"},
        {"--pageable", CLI_FLAG, &pageable, 0, 0, "use ordinary malloc'd host memory instead of pinned"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 3, Examples 3.2-3.3: ten arrays on one stream vs ten streams.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    /* Each array on the GPU, and twice on the host (its input and its result, pinned unless --pageable). */
    n = size_to_fit(&dev, "-n", n, 1, arrays * sizeof(float), 2 * arrays * sizeof(float), 0);
    size_t bytes = n * sizeof(float);
    int blocks = BLOCKS_PER_SM * dev.sms;

    /* The limit, measured before the arrays take their memory: each array crosses the bus twice. With
     * two or more copy engines the two directions overlap and the slower one bounds the run; with one,
     * they add up. */
    double h2d = measure_transfer_bandwidth(bytes, 1, !pageable), d2h = measure_transfer_bandwidth(bytes, 0, !pageable);
    double in_ms = arrays * bytes / (h2d * 1e9) * 1e3, out_ms = arrays * bytes / (d2h * 1e9) * 1e3;
    double bound = dev.copy_engines >= 2 ? (in_ms > out_ms ? in_ms : out_ms) : in_ms + out_ms;

    /* Everything is allocated before anything is timed: cudaMallocHost and cudaMalloc synchronise the
     * device, so allocating inside the loop (as the article pinned each array there) serialises it. */
    struct job jobs[MAX_ARRAYS];
    for (int i = 0; i < arrays; i++) {
        if (pageable) {
            jobs[i].host_in = (float *)host_alloc(bytes);
            jobs[i].host_out = (float *)host_alloc(bytes);
        } else {
            CUDA_CHECK(cudaMallocHost(&jobs[i].host_in, bytes));
            CUDA_CHECK(cudaMallocHost(&jobs[i].host_out, bytes));
        }
        for (long long e = 0; e < n; e++)
            jobs[i].host_in[e] = (float)(i + 1);
        for (long long e = 0; e < n; e++)
            jobs[i].host_out[e] = -1.0f;  /* touched now, so no page faults inside the timing */
        CUDA_CHECK(cudaMalloc(&jobs[i].dev_a, bytes));
        CUDA_CHECK(cudaMalloc(&jobs[i].dev_partial_sums, blocks * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&jobs[i].dev_sum, sizeof(float)));
    }
    /* Non-blocking streams: with the legacy default stream (stream 0) in play, every operation on it
     * waits for all other blocking streams and they wait for it, an implicit synchronisation. */
    cudaStream_t streams[MAX_STREAMS];
    for (int k = 0; k < stream_count; k++)
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
    struct marks marks;
    for (int k = 0; k < stream_count; k++)
        CUDA_CHECK(cudaEventCreateWithFlags(&marks.done[k], cudaEventDisableTiming));
    for (int i = 0; i < arrays; i++)
        CUDA_CHECK(cudaEventCreateWithFlags(&marks.copied_in[i], cudaEventDisableTiming));
    cudaEvent_t checked_start;  /* the checked run's fork (the timed runs fork from the timer's start) */
    CUDA_CHECK(cudaEventCreateWithFlags(&checked_start, cudaEventDisableTiming));

    printf("%d arrays of %lld float32 (%.0f MB each), %s host memory, %d copy engines\n", arrays, n, bytes / 1e6,
           pageable ? "pageable" : "pinned", dev.copy_engines);
    printf("host->device %.1f GB/s, device->host %.1f GB/s (measured now): transfer bound %.2f ms (%s)\n\n", h2d,
           d2h, bound, dev.copy_engines >= 2 ? "the two directions overlap" : "one copy engine: in, then out");
    record_value("transfer_bound", "transfer bound", bound, "ms");

    /* Three ways: one stream; K streams as the article; K streams with the copies in chained. */
    enum way { ONE, MANY, CHAINED, WAYS };
    int failures = 0, counts[WAYS] = {1, stream_count, stream_count}, ordered[WAYS] = {0, 0, 1};
    const char *ways[WAYS] = {"", "", ", copies in chained"};
    double medians[WAYS];
    double *ms = (double *)host_alloc(reps * sizeof(double)), queue_ms = 0.0;
    for (int m = 0; m < WAYS; m++) {
        double host_total = 0.0;
        char label[64], key[64];
        snprintf(label, sizeof label, "%d stream%s%s", counts[m], counts[m] > 1 ? "s" : "", ways[m]);
        snprintf(key, sizeof key, "streams_%d%s", counts[m], m == CHAINED ? "_chained" : "");  /* streams_10 */
        nvtxRangePushA(label);  /* each way's runs as one range on Nsight Systems' timeline */
        /* The checked run, before any timing. */
        CUDA_CHECK(cudaEventRecord(checked_start, streams[0]));
        queue_all(jobs, arrays, n, blocks, streams, counts[m], ordered[m], checked_start, &marks);
        join(streams, counts[m], &marks);
        CUDA_CHECK(cudaStreamSynchronize(streams[0]));
        failures += check_outputs(jobs, arrays, n, blocks, label);
        /* The GPU's time from the fork to the join, between the timer's events on stream 0; beside it the
         * host's clock from the same start (runs.started) to the GPU's end, and its time to queue. */
        struct timed_runs runs = timed_runs(ms, reps, streams[0]);
        while (timed_run(&runs)) {
            queue_all(jobs, arrays, n, blocks, streams, counts[m], ordered[m], runs.timer.start, &marks);
            queue_ms = (wall_seconds() - runs.started) * 1e3 / arrays;
            join(streams, counts[m], &marks);
            timed_run_end(&runs);  /* records the stop and waits for it */
            if (runs.run >= 0)
                host_total += (wall_seconds() - runs.started) * 1e3;
        }
        nvtxRangePop();
        struct stats s = stats_of(ms, reps);
        medians[m] = s.median;
        print_time(key, label, s);
        printf("  = %.2f x the bound; host clock %.2f ms; queueing %.3f ms per array\n", s.median / bound,
               host_total / reps, queue_ms);
    }
    print_article("Part 3 (Examples 3.1, 3.2), 10 arrays of 1e7 float32 on a T4, host clock, each array pinned and "
                  "allocated in the loop: 10 streams 158.13 ms, 1 stream 208.43 ms, about 12 ms to queue each array");
    printf("\nspeed-up over 1 stream: %.2fx with %d streams as in the article, %.2fx with the copies in chained\n",
           medians[ONE] / medians[MANY], stream_count, medians[ONE] / medians[CHAINED]);
    if (pageable)
        printf("(pageable memory: each copy is staged through a driver buffer while the host waits, so copies "
               "cannot overlap; try without --pageable)\n");

    for (int k = 0; k < stream_count; k++) {
        CUDA_CHECK(cudaStreamDestroy(streams[k]));
        CUDA_CHECK(cudaEventDestroy(marks.done[k]));
    }
    for (int i = 0; i < arrays; i++)
        CUDA_CHECK(cudaEventDestroy(marks.copied_in[i]));
    CUDA_CHECK(cudaEventDestroy(checked_start));
    for (int i = 0; i < arrays; i++) {
        if (pageable) {
            free(jobs[i].host_in);
            free(jobs[i].host_out);
        } else {
            CUDA_CHECK(cudaFreeHost(jobs[i].host_in));
            CUDA_CHECK(cudaFreeHost(jobs[i].host_out));
        }
        CUDA_CHECK(cudaFree(jobs[i].dev_a));
        CUDA_CHECK(cudaFree(jobs[i].dev_partial_sums));
        CUDA_CHECK(cudaFree(jobs[i].dev_sum));
    }
    free(ms);
    return exit_status(failures);
}
