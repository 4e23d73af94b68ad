/* stream_timing.cu: Part 3, Examples 3.6 and 3.7, events around every stage of every stream.
 * Each array's work (copy in, three kernels, copy out) gets an event before and after every stage, for
 * one stream, for ten, and for ten whose copies in are chained one after another (streams.cu says
 * why). Every time is read against one start event, so the stages of all streams land on one clock: a
 * timeline like Nsight Systems would draw, written as CSV for a Gantt chart.
 * An event marks when its stream reached that point, so a stage that had to wait for a busy copy engine
 * or for SMs shows as a longer bar, not a later one.
 *   make ch3 && ./ch3_streams_events/stream_timing      (writes output/ch3/stream_timeline.csv)
 */
#include <stdio.h>

#include <nvtx3/nvToolsExt.h>  /* NVTX: named ranges that Nsight Systems shows on its timeline (header only) */

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8 };

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

/* ==== main ==== */

enum { STAGES = 5, MAX_ARRAYS = 64 };
static const char *stage_names[STAGES] = {"copy_in", "partial_reduce", "single_thread_sum", "divide_by", "copy_out"};

int main(int argc, char **argv)
{
    long long n = 10000000;
    int arrays = 10;
    const char *csv_path = "output/ch3/stream_timeline.csv";
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e9, "elements per array (default 10000000, the article's)"},
        {"--arrays", CLI_INT, &arrays, 1, MAX_ARRAYS, "arrays, and streams in the second run (default 10)"},
        {"--stages-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "timeline FILE (default output/ch3/stream_timeline.csv)"},
    };
    int device = cli_parse(argc, argv, "Part 3, Examples 3.6-3.7: a timeline of every stage, 1 stream vs 10.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    /* Each array on the GPU and on the host. */
    n = size_to_fit(&dev, "-n", n, 1, arrays * sizeof(float), arrays * sizeof(float), 0);
    size_t bytes = n * sizeof(float);
    int blocks = BLOCKS_PER_SM * dev.sms;
    long long threads = (long long)blocks * THREADS_PER_BLOCK;

    float *host[MAX_ARRAYS], *dev_a[MAX_ARRAYS], *dev_partial_sums[MAX_ARRAYS], *dev_sum[MAX_ARRAYS];
    cudaStream_t streams[MAX_ARRAYS];
    cudaEvent_t start, marks[MAX_ARRAYS][STAGES + 1];  /* marks[i][s]: array i reached stage s */
    CUDA_CHECK(cudaEventCreate(&start));
    for (int i = 0; i < arrays; i++) {
        CUDA_CHECK(cudaMallocHost(&host[i], bytes));  /* pinned, before any timing */
        CUDA_CHECK(cudaMalloc(&dev_a[i], bytes));
        CUDA_CHECK(cudaMalloc(&dev_partial_sums[i], blocks * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&dev_sum[i], sizeof(float)));
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
        for (int s = 0; s <= STAGES; s++)
            CUDA_CHECK(cudaEventCreate(&marks[i][s]));
    }
    cudaEvent_t copied_in[MAX_ARRAYS];
    for (int i = 0; i < arrays; i++)
        CUDA_CHECK(cudaEventCreateWithFlags(&copied_in[i], cudaEventDisableTiming));
    FILE *csv = csv_open(csv_path, "mode,streams,stream,array,stage,start_ms,end_ms");
    int failures = 0;
    printf("%d arrays of %lld float32 (%.0f MB each), pinned, %d copy engines\n", arrays, n, bytes / 1e6,
           dev.copy_engines);

    /* Three ways: one stream; a stream per array; a stream per array with the copies in chained. The
     * mode names are the CSV's (plots/stream_timeline.gp reads them). */
    enum way { ONE, MANY, CHAINED, WAYS };
    const char *modes[WAYS] = {"one", "many", "chained"};
    int counts[WAYS] = {1, arrays, arrays};
    for (int m = 0; m < WAYS; m++) {
        /* The same runs as NVTX ranges, the way's and each array's, for `make profile`: Nsight Systems
         * draws them above the GPU's rows and projects each onto the work it queued, so its timeline and
         * this one can be laid side by side. */
        nvtxRangePushA(modes[m]);
        for (int run = 0; run < 2; run++) {  /* run 0 warms up; run 1 is recorded */
            for (int i = 0; i < arrays; i++)
                for (long long e = 0; e < n; e++)
                    host[i][e] = (float)(i + 1);
            CUDA_CHECK(cudaEventRecord(start, streams[0]));
            for (int k = 1; k < counts[m]; k++)
                CUDA_CHECK(cudaStreamWaitEvent(streams[k], start, 0));  /* every stream starts after start */
            for (int i = 0; i < arrays; i++) {
                cudaStream_t s = streams[i % counts[m]];
                char range[32];
                snprintf(range, sizeof range, "array %d", i);
                nvtxRangePushA(range);
                CUDA_CHECK(cudaEventRecord(marks[i][0], s));
                if (m == CHAINED && i > 0)  /* this copy in waits until the previous one is done */
                    CUDA_CHECK(cudaStreamWaitEvent(s, copied_in[i - 1], 0));
                /* (Recording this mark after the wait instead would make the bar the copy alone, but on
                 * an H200 that timing event between the wait and the copy cost about 0.26 ms per array:
                 * 11.7 ms instead of 9.1. Measuring changes what is measured; the bar includes the wait.) */
                CUDA_CHECK(cudaMemcpyAsync(dev_a[i], host[i], bytes, cudaMemcpyHostToDevice, s));
                CUDA_CHECK(cudaEventRecord(marks[i][1], s));
                CUDA_CHECK(cudaEventRecord(copied_in[i], s));
                partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, s>>>(dev_a[i], n, dev_partial_sums[i]);
                CHECK_LAUNCH();
                CUDA_CHECK(cudaEventRecord(marks[i][2], s));
                single_thread_sum<<<1, 1, 0, s>>>(dev_partial_sums[i], blocks, dev_sum[i]);
                CHECK_LAUNCH();
                CUDA_CHECK(cudaEventRecord(marks[i][3], s));
                divide_by<<<blocks, THREADS_PER_BLOCK, 0, s>>>(dev_a[i], n, dev_sum[i]);
                CHECK_LAUNCH();
                CUDA_CHECK(cudaEventRecord(marks[i][4], s));
                CUDA_CHECK(cudaMemcpyAsync(host[i], dev_a[i], bytes, cudaMemcpyDeviceToHost, s));
                CUDA_CHECK(cudaEventRecord(marks[i][5], s));
                nvtxRangePop();
            }
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        nvtxRangePop();
        /* Check: every array now sums to 1 (bound as in normalize.cu). */
        double tolerance = (ceil_div(n, threads) + TREE_ADDITIONS + blocks + 1) * FLOAT_ROUNDING, worst = 0.0;
        for (int i = 0; i < arrays; i++) {
            double sum = 0.0;
            for (long long e = 0; e < n; e++)
                sum += host[i][e];
            worst = worst_of(worst, relative_error(sum, 1.0));
        }
        failures += check(worst <= tolerance, "%s, %d stream%s: %d arrays sum to 1 within %.1e (worst %.1e)", modes[m],
                          counts[m], counts[m] > 1 ? "s" : "", arrays, tolerance, worst);

        /* Every mark against the one start event; the total runs from it to the latest end. */
        float last = 0.0f, copy_in = 0.0f, kernels = 0.0f, copy_out = 0.0f;
        for (int i = 0; i < arrays; i++)
            for (int s = 0; s < STAGES; s++) {
                float begin = 0.0f, end = 0.0f;
                CUDA_CHECK(cudaEventElapsedTime(&begin, start, marks[i][s]));
                CUDA_CHECK(cudaEventElapsedTime(&end, start, marks[i][s + 1]));
                csv_row(csv, "%s,%d,%d,%d,%s,%.4f,%.4f", modes[m], counts[m], i % counts[m], i, stage_names[s], begin,
                        end);
                last = end > last ? end : last;
                if (s == 0)
                    copy_in += end - begin;
                else if (s == STAGES - 1)
                    copy_out += end - begin;
                else
                    kernels += end - begin;
            }
        printf("  %-7s %2d stream%s: total %.2f ms from the first begin to the last end "
               "(stage bars add up to: copies in %.2f, kernels %.2f, copies out %.2f ms)\n",
               modes[m], counts[m], counts[m] > 1 ? "s" : " ", last, copy_in, kernels, copy_out);
    }
    print_article("Part 3 (Examples 3.6, 3.7), 10 arrays of 1e7 float32 on a T4, pinned inside the loop: 1 stream "
                  "113.16 ms, 10 streams 108.50 ms");
    csv_close(csv);
    printf("wrote %s (make figures draws it as a Gantt chart)\n", csv_path);

    for (int i = 0; i < arrays; i++) {
        CUDA_CHECK(cudaFreeHost(host[i]));
        CUDA_CHECK(cudaFree(dev_a[i]));
        CUDA_CHECK(cudaFree(dev_partial_sums[i]));
        CUDA_CHECK(cudaFree(dev_sum[i]));
        CUDA_CHECK(cudaStreamDestroy(streams[i]));
        CUDA_CHECK(cudaEventDestroy(copied_in[i]));
        for (int s = 0; s <= STAGES; s++)
            CUDA_CHECK(cudaEventDestroy(marks[i][s]));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    return exit_status(failures);
}
