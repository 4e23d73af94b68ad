/* normalize.cu: Part 3, Example 3.1, one stream: copy in, three kernels, copy out, one synchronize.
 * The task of the chapter is a <- a / sum(a) on the GPU, in three kernels: partial_reduce (the tree of
 * chapter 2), single_thread_sum (one thread adds the blocks' partial sums) and divide_by. Queued on one
 * stream, they run in order, one after the other, while the host is free; it waits once, at the end.
 *   make ch3 && ./ch3_streams_events/normalize          (10,000,000 ones, as in the article)
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8 };

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

int main(int argc, char **argv)
{
    long long n = 10000000;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e10, "number of float32 ones (default 10000000, the article's)"},
    };
    int device = cli_parse(argc, argv, "Part 3, Example 3.1: normalise an array with three kernels on one stream.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);
    n = size_to_fit(&dev, "-n", n, 1, sizeof(float), sizeof(float), 0);  /* the array, on the GPU and the host */
    size_t bytes = n * sizeof(float);
    int blocks = BLOCKS_PER_SM * dev.sms;  /* the article's 32 x 40 was 32 blocks per SM of a T4 */

    /* Pinned (page-locked) host memory: the operating system may not move it to disk, so the GPU's copy
     * engine can read it directly while the host goes on. From ordinary (pageable) memory the driver
     * must first copy into a pinned staging buffer, and the host waits: such copies are not truly
     * asynchronous. */
    float *a = NULL;
    CUDA_CHECK(cudaMallocHost(&a, bytes));
    double old_sum = 0.0;
    for (long long i = 0; i < n; i++) {
        a[i] = 1.0f;
        old_sum += a[i];
    }
    printf("old sum: %.2f\n", old_sum);

    /* A stream of our own. cudaStreamNonBlocking keeps it independent of the legacy default stream,
     * which would otherwise wait for, and be waited on by, every other stream. */
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float *dev_a, *dev_partial_sums, *dev_sum;
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_partial_sums, blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev_sum, sizeof(float)));

    /* Everything is queued: each call returns at once, and the stream runs them in this order. */
    CUDA_CHECK(cudaMemcpyAsync(dev_a, a, bytes, cudaMemcpyHostToDevice, stream));
    partial_reduce<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_partial_sums);
    CHECK_LAUNCH();
    single_thread_sum<<<1, 1, 0, stream>>>(dev_partial_sums, blocks, dev_sum);
    CHECK_LAUNCH();
    divide_by<<<blocks, THREADS_PER_BLOCK, 0, stream>>>(dev_a, n, dev_sum);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(a, dev_a, bytes, cudaMemcpyDeviceToHost, stream));
    /* The one wait: after it, a holds the result. (The article's 3.1b gets it from Numba's
     * `with stream.auto_synchronize():`, which synchronises when the block ends; in C it is this call.) */
    CUDA_CHECK(cudaStreamSynchronize(stream));

    /* Every element is 1 / n. The float sum of the ones is exact up to n = 2^24; beyond that each
     * element's error is at most (elements per thread + TREE_ADDITIONS + the blocks' partial sums, which
     * single_thread_sum adds one after another) x 2^-24, relative, plus one rounding for the division. */
    double new_sum = 0.0;
    long long unequal = 0;
    for (long long i = 0; i < n; i++) {
        new_sum += a[i];
        unequal += a[i] != a[0];
    }
    long long threads = (long long)blocks * THREADS_PER_BLOCK;
    double tolerance = (ceil_div(n, threads) + TREE_ADDITIONS + blocks + 1) * FLOAT_ROUNDING;
    printf("new sum: %.2f (each element %.9g; 1/n = %.9g)\n", new_sum, a[0], 1.0 / n);
    int failures = check(relative_error(new_sum, 1.0) <= tolerance && unequal == 0,
                         "new sum %.9f, |sum - 1| <= %.1e, %lld elements unlike the first", new_sum, tolerance,
                         unequal);

    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_partial_sums));
    CUDA_CHECK(cudaFree(dev_sum));
    CUDA_CHECK(cudaFreeHost(a));
    return exit_status(failures);
}
