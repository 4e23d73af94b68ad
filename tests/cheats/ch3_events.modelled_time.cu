/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch3_events asks for a time
 * measured by the GPU with two events. This file creates no event: it launches the kernel once (the
 * judge checks the partial sums, so the kernel must run on the array), waits, and returns a time it works
 * out from the card: the bytes the kernel reads, at 85% of the memory's peak bandwidth (its clock and bus
 * width, which cudaDeviceGetAttribute gives), plus 4 microseconds for a launch. On the arrays of the
 * GPU's own memory that the old judge used, the model fell inside its bounds (0.4 to 3 times its own
 * time): the old judge (on an H200): PASS.
 * Why it must fail: at sizes drawn for each grade the array is pinned host memory, read over the host
 * link 30 to 100 times slower, which no model of the card's memory predicts: a wrong result. */

#define THREADS 256

/* Given: chapter 2's reduction, one partial sum per block (a grid-stride loop, then a tree). */
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

/* The runner calls this with array (n floats) and partial_sums (blocks floats) on the GPU, and a stream
 * it made. Returns the milliseconds of one launch, the mean of `launches` launches. */
float lab_time_launches(const float *array, long long n, float *partial_sums, int blocks, int launches,
                        cudaStream_t stream)
{
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    cudaStreamSynchronize(stream);
    int device = 0, clock_khz = 0, bus_bits = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
    double peak = 2.0 * clock_khz * 1e3 * bus_bits / 8;  /* bytes a second: two transfers a clock */
    double bytes = 4.0 * n + 4.0 * blocks;
    return (float)(1e3 * bytes / (0.85 * peak) + 0.004);
}
