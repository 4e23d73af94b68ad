/* timer.cu: Part 3, Example 3.5, a reusable GPU timer: the C counterpart of the article's context manager.
 * The article wraps two events in a Python `with` block. In C the same is two calls around the work:
 * gpu_timer_start(&timer, stream) records the first event, gpu_timer_stop(&timer) records the second,
 * waits for it and returns the milliseconds between them (common/timer.h, common/timer.c).
 *   make ch3 && ./ch3_streams_events/timer
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

enum { THREADS_PER_BLOCK = 256 };

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

int main(int argc, char **argv)
{
    long long n = 10000000;
    int reps = 21;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 2e9, "number of float32 elements (default 10000000)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs (default 21)"},
    };
    int device = cli_parse(argc, argv, "Part 3, Example 3.5: the GPU timer of common/ around work on a stream.",
                           options, 2);
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(1u << 30);  /* the limit, while the array's memory is free */
    int blocks = 32 * dev.sms;

    /* Data: a[i] = (i mod 1000) / 1000, whose sum the CPU computes exactly in double. */
    float *a = (float *)malloc(bytes), *partial_sums = (float *)malloc(blocks * sizeof(float));
    double *ms = (double *)malloc(reps * sizeof(double)), want = 0.0;
    if (!a || !partial_sums || !ms) {
        fprintf(stderr, "out of host memory; try a smaller -n\n");
        return 1;
    }
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

    /* Correct first: the partial sums must add up to the CPU's sum, within (elements per thread + 8 tree
     * steps) x 2^-24 relative, for these non-negative terms. */
    partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(partial_sums, dev_partial_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double got = 0.0;
    for (int b = 0; b < blocks; b++)
        got += partial_sums[b];
    long long threads = (long long)blocks * THREADS_PER_BLOCK;
    double tolerance = ((n + threads - 1) / threads + 8) * 0x1p-24;
    int ok = check_report(relative_error(got, want) <= tolerance, "partial sums add up to %.6f, CPU %.6f, "
                          "relative error %.1e <= %.1e", got, want, relative_error(got, want), tolerance);
    if (!ok)
        return 1;

    /* The timer brackets whatever is queued between start and stop on its stream: here the kernel, then
     * a copy in followed by the kernel. */
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    double *with_copy_ms = (double *)malloc(reps * sizeof(double));
    for (int r = -1; r < reps; r++) {  /* r = -1: warm-up */
        gpu_timer_start(&timer, stream);
        partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
        CHECK_LAUNCH();
        float kernel_only = gpu_timer_stop(&timer);

        gpu_timer_start(&timer, stream);
        CUDA_CHECK(cudaMemcpyAsync(dev_a, a, bytes, cudaMemcpyHostToDevice, stream));  /* pageable: see README */
        partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
        CHECK_LAUNCH();
        float with_copy = gpu_timer_stop(&timer);
        if (r >= 0) {
            ms[r] = kernel_only;
            with_copy_ms[r] = with_copy;
        }
    }
    printf("\n%d runs, %lld float32 (%.0f MB):\n", reps, n, bytes / 1e6);
    print_bandwidth("timer around the kernel", stats_of(ms, reps), bytes, copy_gbs, "of copy");
    print_time("timer around copy + kernel", stats_of(with_copy_ms, reps));
    printf("\n");
    gpu_timer_destroy(&timer);
    free(with_copy_ms);

    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_partial_sums));
    free(a);
    free(partial_sums);
    free(ms);
    return 0;
}
