/* Lab ch3_events, a solution: two events around the timed launches, after a warm-up, on the stream the
 * kernel runs on (chapter 3, Example 3.4: ch3_streams_events/events.cu).
 *
 * The warm-up launch loads the kernel's code and is queued before the first event, so the events hold
 * only the timed launches. Both events are recorded on the kernel's stream, so the GPU stamps them as it
 * gets there; cudaEventSynchronize waits for the second stamp before the time is read.
 *   make lab L=ch3_events FILE=labs/solutions/ch3_events.cu
 */

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
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);  /* warm-up */
    cudaEventRecord(start, stream);
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    cudaEventRecord(stop, stream);
    cudaEventSynchronize(stop);  /* the GPU has passed stop: its time stamp is there to read */
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms / launches;
}
