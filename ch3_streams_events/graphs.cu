/* graphs.cu: going further than Part 3: the ten-array normalise pipeline as a CUDA graph.
 * streams.cu queues, for each of ten arrays, a copy in, three kernels and a copy out: fifty calls, each
 * paid for by the host (and, here, three stream-ordered allocations and frees per array on top). A
 * graph records that work once, with its dependencies, and launches all of it in one call, so the host's
 * cost per operation and the gaps between small kernels shrink. Where the arrays are large the copies
 * dominate and a graph has little to win; where they are small, launching is all there is.
 *   make ch3 && ./ch3_streams_events/graphs          (10 arrays of 1e3 to 1e7 float32; output/ch3/graphs.csv)
 *   ./ch3_streams_events/graphs -n 1e4 -r 101
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8 };
/* Arrays and streams: the fixed arrays of jobs, streams and events hold at most this many. */
enum { MAX_ARRAYS = 64, MAX_STREAMS = 64 };
/* Per array: three allocations, a copy in, three kernels, a copy out, three frees. */
enum { OPERATIONS_PER_ARRAY = 11 };

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
    float *host_in, *host_out;  /* array i's input (filled with i + 1) and its result, pinned */
};

/* Queues one array's normalisation on stream s, its device memory allocated and freed in stream order:
 * cudaMallocAsync hands out memory when the stream reaches it, from a pool, without synchronising the
 * device as cudaMalloc does, and cudaFreeAsync gives it back to the pool when the stream gets there. */
static void queue_normalize(const struct job *j, long long n, int blocks, cudaStream_t s)
{
    size_t bytes = n * sizeof(float);
    float *a, *partial_sums, *sum;
    CUDA_CHECK(cudaMallocAsync((void **)&a, bytes, s));
    CUDA_CHECK(cudaMallocAsync((void **)&partial_sums, blocks * sizeof(float), s));
    CUDA_CHECK(cudaMallocAsync((void **)&sum, sizeof(float), s));
    CUDA_CHECK(cudaMemcpyAsync(a, j->host_in, bytes, cudaMemcpyHostToDevice, s));
    partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, s>>>(a, n, partial_sums);
    CHECK_LAUNCH();
    single_thread_sum<<<1, 1, 0, s>>>(partial_sums, blocks, sum);
    CHECK_LAUNCH();
    divide_by<<<blocks, THREADS_PER_BLOCK, 0, s>>>(a, n, sum);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(j->host_out, a, bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaFreeAsync(a, s));
    CUDA_CHECK(cudaFreeAsync(partial_sums, s));
    CUDA_CHECK(cudaFreeAsync(sum, s));
}

/* Queues every array, array i on stream i % count, between a fork (every stream waits for an event on
 * streams[0]) and a join (streams[0] waits for an event at the end of each). The same calls either run
 * now or, inside a stream capture, are recorded into a graph: an event that a captured stream records
 * and another stream waits for pulls the second stream into the capture, with that dependency. */
static void queue_all(const struct job *jobs, int arrays, long long n, int blocks, cudaStream_t *streams, int count,
                      cudaEvent_t *events)
{
    CUDA_CHECK(cudaEventRecord(events[0], streams[0]));
    for (int k = 1; k < count; k++)
        CUDA_CHECK(cudaStreamWaitEvent(streams[k], events[0], 0));
    for (int i = 0; i < arrays; i++)
        queue_normalize(&jobs[i], n, blocks, streams[i % count]);
    for (int k = 1; k < count; k++) {
        CUDA_CHECK(cudaEventRecord(events[k], streams[k]));
        CUDA_CHECK(cudaStreamWaitEvent(streams[0], events[k], 0));
    }
}

/* Each output must sum to 1 with all its elements equal (streams.cu's check); returns 1 if not. */
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
    return check(worst <= tolerance && unequal == 0, "%s, n = %lld: %d arrays sum to 1 within %.1e (worst %.1e), "
                 "%lld elements unlike their array's first", what, n, arrays, tolerance, worst, unequal);
}

static void clear_outputs(struct job *jobs, int arrays, long long n)
{
    for (int i = 0; i < arrays; i++)
        for (long long e = 0; e < n; e++)
            jobs[i].host_out[e] = -1.0f;
}

enum way { STREAMS, GRAPH, WAYS };
static const char *names[WAYS] = {"streams", "graph"};

/* Queues the work once on streams[0], one way, from fork to join, and returns the host's time to queue
 * it in microseconds (every call, or one cudaGraphLaunch). */
static double queue_once(enum way w, cudaGraphExec_t graph, const struct job *jobs, int arrays, long long n,
                         int blocks, cudaStream_t *streams, int count, cudaEvent_t *events)
{
    double t0 = wall_seconds();
    if (w == STREAMS)
        queue_all(jobs, arrays, n, blocks, streams, count, events);
    else
        CUDA_CHECK(cudaGraphLaunch(graph, streams[0]));
    return (wall_seconds() - t0) * 1e6;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 0;
    int arrays = 10, stream_count = 10, reps = 51;
    const char *csv_path = "output/ch3/graphs.csv";
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e9, "elements per array (default: 1e3, 1e4, 1e5, 1e6 and 1e7, the article's)"},
        {"--arrays", CLI_INT, &arrays, 1, MAX_ARRAYS, "number of arrays (default 10)"},
        {"--streams", CLI_INT, &stream_count, 1, MAX_STREAMS, "streams (default 10)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs of each way at each size (default 51)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the sweep to FILE (default output/ch3/graphs.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: Part 3's ten-array pipeline, stream by stream and as a graph.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);

    long long sizes[] = {1000, 10000, 100000, 1000000, 10000000};
    int count = cli_given("-n") ? 1 : COUNT_OF(sizes);
    if (cli_given("-n"))
        sizes[0] = n;
    long long max_n = size_to_fit(&dev, "-n", sizes[count - 1], 1, arrays * sizeof(float),
                                  2 * arrays * sizeof(float), 0);
    if (max_n < sizes[count - 1]) {  /* a default that did not fit: the sizes up to what does */
        while (count > 1 && sizes[count - 2] >= max_n)
            count--;
        sizes[count - 1] = max_n;
    }

    struct job jobs[MAX_ARRAYS];
    for (int i = 0; i < arrays; i++) {
        CUDA_CHECK(cudaMallocHost(&jobs[i].host_in, max_n * sizeof(float)));
        CUDA_CHECK(cudaMallocHost(&jobs[i].host_out, max_n * sizeof(float)));
        for (long long e = 0; e < max_n; e++)
            jobs[i].host_in[e] = (float)(i + 1);
    }
    cudaStream_t streams[MAX_STREAMS];
    cudaEvent_t events[MAX_STREAMS];
    for (int k = 0; k < stream_count; k++) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&events[k], cudaEventDisableTiming));
    }
    /* The pool behind cudaMallocAsync gives its memory back to the driver at every synchronisation
     * unless told to keep it; kept, the stream way does not pay to map it again in every run. (A graph
     * keeps the memory of its allocations between launches anyway.) */
    cudaMemPool_t pool;
    unsigned long long keep = ~0ull;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));

    FILE *csv = csv_open(csv_path, "way,n,arrays,operations,median_ms,mean_ms,std_ms,queue_us");
    printf("%d arrays, %d streams: per array 3 cudaMallocAsync, copy in, 3 kernels, copy out, 3 cudaFreeAsync "
           "(%d operations a run); GPU time from fork to join, median of %d\n\n", arrays, stream_count,
           arrays * OPERATIONS_PER_ARRAY, reps);
    printf("%10s %13s %13s %8s %17s %17s\n", "n", "streams", "graph", "speed-up", "queue: streams", "queue: graph");
    double *ms = (double *)host_alloc(reps * sizeof(double)), *queue = (double *)host_alloc(reps * sizeof(double));
    double median[WAYS], at_1e4 = 0.0, per_op_smallest[WAYS] = {0};
    int failures = 0;
    for (int k = 0; k < count; k++) {
        long long size = sizes[k];
        int blocks = (int)(ceil_div(size, THREADS_PER_BLOCK) < BLOCKS_PER_SM * dev.sms
                               ? ceil_div(size, THREADS_PER_BLOCK)
                               : BLOCKS_PER_SM * dev.sms);
        /* Record the graph: the same calls, captured instead of run. Global mode: a call that is not
         * allowed during a capture (cudaMalloc, a synchronisation) anywhere in this thread is an error. */
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CUDA_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
        queue_all(jobs, arrays, size, blocks, streams, stream_count, events);
        CUDA_CHECK(cudaStreamEndCapture(streams[0], &graph));
        CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

        double queue_median[WAYS];
        for (int w = 0; w < WAYS; w++) {
            /* The checked run, before any timing. */
            clear_outputs(jobs, arrays, size);
            queue_once((enum way)w, exec, jobs, arrays, size, blocks, streams, stream_count, events);
            CUDA_CHECK(cudaStreamSynchronize(streams[0]));
            failures += check_outputs(jobs, arrays, size, blocks, names[w]);
            if (failures)
                return 1;
            /* The GPU's time from fork to join, between the timer's events on streams[0]. */
            struct timed_runs runs = timed_runs(ms, reps, streams[0]);
            while (timed_run(&runs)) {
                double us = queue_once((enum way)w, exec, jobs, arrays, size, blocks, streams, stream_count, events);
                if (runs.run >= 0)
                    queue[runs.run] = us;
            }
            struct stats s = stats_of(ms, reps), q = stats_of(queue, reps);
            median[w] = s.median;
            queue_median[w] = q.median;
            csv_row(csv, "%s,%lld,%d,%d,%.6f,%.6f,%.6f,%.2f", names[w], size, arrays, arrays * OPERATIONS_PER_ARRAY,
                    s.median, s.mean, s.std, q.median);
            if (k == 0)
                per_op_smallest[w] = s.median * 1e3 / (arrays * OPERATIONS_PER_ARRAY);
        }
        printf("%10lld %10.1f us %10.1f us %7.2fx %14.1f us %14.1f us\n", size, median[STREAMS] * 1e3,
               median[GRAPH] * 1e3, median[STREAMS] / median[GRAPH], queue_median[STREAMS], queue_median[GRAPH]);
        if (size == 10000)
            at_1e4 = median[STREAMS] / median[GRAPH];
        CUDA_CHECK(cudaGraphExecDestroy(exec));
        CUDA_CHECK(cudaGraphDestroy(graph));
    }
    csv_close(csv);
    printf("\nper operation at n = %lld: %.2f us stream by stream, %.2f us in the graph (GPU time / %d operations)\n",
           sizes[0], per_op_smallest[STREAMS], per_op_smallest[GRAPH], arrays * OPERATIONS_PER_ARRAY);
    if (at_1e4 > 0)
        printf("at n = 1e4 the graph is %.2fx faster than stream-by-stream launches\n", at_1e4);
    printf("wrote %s\n", csv_path);

    for (int k = 0; k < stream_count; k++) {
        CUDA_CHECK(cudaStreamDestroy(streams[k]));
        CUDA_CHECK(cudaEventDestroy(events[k]));
    }
    for (int i = 0; i < arrays; i++) {
        CUDA_CHECK(cudaFreeHost(jobs[i].host_in));
        CUDA_CHECK(cudaFreeHost(jobs[i].host_out));
    }
    free(ms);
    free(queue);
    return exit_status(0);
}
