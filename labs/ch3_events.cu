/* Lab ch3_events: timing a kernel with two CUDA events (chapter 3, Examples 3.4 and 3.5).
 *
 * Write lab_time_launches: launch partial_reduce `launches` times on `stream` and return the mean time of
 * one launch, in milliseconds, measured by the GPU with two events. A launch returns at once (the host
 * only queues the kernel), so a clock on the host would time the queueing; an event is a mark in a stream
 * that the GPU stamps with its own clock when the stream reaches it. So:
 *   - create two events (cudaEventCreate);
 *   - launch the kernel once before the first event, a warm-up: CUDA loads a kernel's code at its first
 *     launch in a process, and that first launch must not be timed;
 *   - record the first event on `stream`, launch the kernel `launches` times on `stream`, record the
 *     second event on `stream` (an event on another stream is stamped when THAT stream gets there);
 *   - wait for the second event (cudaEventSynchronize): until the GPU has passed it, it has no time stamp;
 *   - read the time between them (cudaEventElapsedTime), destroy both events, and return the time divided
 *     by `launches`.
 * The launch is partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums); the kernel is
 * fixed, do not change it. The judge times the same kernel on the same data in its own process and
 * compares: the first call is one launch of a fresh process; the others are many launches. At some of
 * those, drawn for each grade, the array is pinned host memory, which the kernel reads over the host link,
 * many times slower than the GPU's own memory: only a time measured on the GPU fits every call.
 * ch3_streams_events/events.cu shows the events; its README says what a host clock would measure instead.
 *
 * Contract:
 *   sizes: checked (n, launches) = (100003, 1) in a runner that has launched nothing yet, then
 *     (2^25 + 1, 20), (50000017, 7) and (2^24 + 3, 5), three calls each; blocks is n / 256 rounded up, at
 *     most 32 x sms. Not timed: the answer is a time.
 *   pointers: array, n floats at the start of a cudaMalloc (256-byte aligned) or, at calls drawn for each
 *     grade, of pinned host memory, either of them at least n floats long; partial_sums, its own
 *     cudaMalloc of exactly blocks floats; none offset.
 *   zero: n, blocks and launches are at least 1.
 *   values: array uniform in [0.5, 1.5), drawn afresh for every call; the partial sums are checked too.
 *   index: the fixed kernel's, in long long; n is below 2^31 here.
 *   binding: the Rules line, the fixed kernel and launch, and the time returned; the steps listed are the
 *     way, and the judge takes its own times that way.
 *
 * Rules: the kernel and its launch configuration are fixed; events, launches and waits only (no copies,
 * no memory of your own, no clock of the host).
 * Not timed: your function's answer is a time, compared with the judge's.
 *   make lab L=ch3_events
 */

#define THREADS 256

/* Fixed: chapter 2's reduction, one partial sum per block (a grid-stride loop, then a tree). */
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
    /* your code here */
    return 0.0f;
}
