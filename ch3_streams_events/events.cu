/* events.cu: Part 3, Examples 3.4 and 3.5, timing a kernel with two CUDA events, then with a timer.
 * A kernel launch returns at once: the host only queued it. A host clock around the launch therefore
 * measures the launch, not the work. An event is a marker in a stream that the GPU stamps with its own
 * clock when the stream reaches it; two events around the kernel give the kernel's time. Example 3.5
 * wraps the two events into a reusable timer: the article's context manager is, in C, two calls of
 * common/timer.h around the work, gpu_timer_start(&timer, stream) and gpu_timer_stop(&timer), which the
 * course's timing loop, timed_runs, makes around each of its runs.
 *   make ch3 && ./ch3_streams_events/events              (partial_reduce over 10,000,000 float32)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8 };

/* ==== Kernel ==== */

/* normalize.cu's, copied (tests/copies.t keeps them equal): Chapter 2's better reduction, 256 threads a
 * block, one partial sum per block. */
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

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 10000000;
    int reps = 21;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 2e9, "number of float32 elements (default 10000000)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 3, Examples 3.4-3.5: time a kernel with two events, then a timer.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);  /* the limit, while the array's memory is free */
    int blocks = BLOCKS_PER_SM * dev.sms;

    /* Data: a[i] = (i mod 1000) / 1000, whose sum the CPU computes exactly in double. */
    float *a = (float *)host_alloc(bytes), *partial_sums = (float *)host_alloc(blocks * sizeof(float));
    double *ms = (double *)host_alloc(reps * sizeof(double)), want = 0.0;
    for (long long i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) / 1000.0f;
        want += a[i];
    }
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float *dev_a, *dev_partial_sums;
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_partial_sums, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpyAsync(dev_a, a, bytes, cudaMemcpyHostToDevice, stream));

    /* Correct first: the partial sums must add up to the CPU's sum, within (elements per thread +
     * TREE_ADDITIONS) x 2^-24 relative, for these non-negative terms. */
    partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(partial_sums, dev_partial_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double got = 0.0;
    for (int b = 0; b < blocks; b++)
        got += partial_sums[b];
    long long threads = (long long)blocks * THREADS_PER_BLOCK;
    double tolerance = (ceil_div(n, threads) + TREE_ADDITIONS) * FLOAT_ROUNDING;
    if (check(relative_error(got, want) <= tolerance, "partial sums add up to %.6f, CPU %.6f, relative error %.1e <= "
              "%.1e", got, want, relative_error(got, want), tolerance))
        return 1;

    /* ---- Example 3.4: two events around the kernel. ---- */
    /* Events are created once; creating one does not start anything. */
    cudaEvent_t event_begin, event_end;
    CUDA_CHECK(cudaEventCreate(&event_begin));
    CUDA_CHECK(cudaEventCreate(&event_end));
    double *launch_ms = (double *)host_alloc(reps * sizeof(double));
    double *synced_ms = (double *)host_alloc(reps * sizeof(double));
    /* Written out, not through timed_runs (timer.h): these are the calls the article shows. */
    for (int r = -1; r < reps; r++) {  /* r = -1: warm-up */
        double t0 = wall_seconds();
        CUDA_CHECK(cudaEventRecord(event_begin, stream));
        partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(event_end, stream));
        double t1 = wall_seconds();  /* the host is back here long before the kernel ends */
        /* Wait until the GPU has passed event_end; only then can its time be read. The article also
         * calls event_end.wait(stream): that makes later work on a stream wait for the event, which
         * matters across streams, not for reading a time. */
        CUDA_CHECK(cudaEventSynchronize(event_end));
        double t2 = wall_seconds();
        float elapsed = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, event_begin, event_end));
        if (r >= 0) {
            ms[r] = elapsed;
            launch_ms[r] = (t1 - t0) * 1e3;
            synced_ms[r] = (t2 - t0) * 1e3;
        } else {
            say_runs_take((t2 - t0) * 1e3, reps);
        }
    }
    printf("\npartial_reduce over %lld float32 (%.0f MB), %d blocks of %d threads, %d runs:\n", n, bytes / 1e6,
           blocks, THREADS_PER_BLOCK, reps);
    print_bandwidth("events_kernel", "events around the kernel", stats_of(ms, reps), bytes, copy_gbs, "of copy");
    print_article("Part 3 (Example 3.4), 1e7 float32 on a T4: 0.57 ms between the events");
    print_time("host_launch", "host clock, launch only", stats_of(launch_ms, reps));
    printf("  <- the launch, not the kernel\n");
    print_time("host_launch_wait", "host clock, launch + wait", stats_of(synced_ms, reps));
    printf("  <- the kernel plus launch and wake-up\n");
    if (bytes < dev.l2_bytes)
        printf("note: the array (%.0f MB) fits in the %.0f MB L2 cache, so repeated runs read it from there; "
               "-n 1e9 measures DRAM.\n", bytes / 1e6, dev.l2_bytes / 1e6);
    CUDA_CHECK(cudaEventDestroy(event_begin));
    CUDA_CHECK(cudaEventDestroy(event_end));
    free(launch_ms);
    free(synced_ms);

    /* ---- Example 3.5: the same two events, inside a timer. ---- */
    /* The course's timing loop (timer.h) records the two events around each run on its stream: they
     * bracket whatever is queued in the loop's body, here the kernel, then a copy in followed by the
     * kernel. The copy is from pageable memory (malloc'd), so it runs at the speed of the driver's
     * staging, not of the bus: the README says more. */
    struct timed_runs runs = timed_runs(ms, reps, stream);
    while (timed_run(&runs)) {
        partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
        CHECK_LAUNCH();
    }
    double *with_copy_ms = (double *)host_alloc(reps * sizeof(double));
    runs = timed_runs(with_copy_ms, reps, stream);
    while (timed_run(&runs)) {
        CUDA_CHECK(cudaMemcpyAsync(dev_a, a, bytes, cudaMemcpyHostToDevice, stream));
        partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
        CHECK_LAUNCH();
    }
    printf("\nthe GPU timer of common/timer.h (Example 3.5), %d runs:\n", reps);
    print_bandwidth("timer_kernel", "timer around the kernel", stats_of(ms, reps), bytes, copy_gbs, "of copy");
    print_article("Part 3 (Example 3.5), the same kernel in its CUDATimer context manager: 0.53 ms");
    print_time("timer_copy_kernel", "timer around copy + kernel", stats_of(with_copy_ms, reps));
    printf("\n");
    free(with_copy_ms);

    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_partial_sums));
    free(a);
    free(partial_sums);
    free(ms);
    return exit_status(0);
}
