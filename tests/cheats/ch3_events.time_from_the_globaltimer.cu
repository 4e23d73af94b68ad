/* Class 4 (the timer, from the other side: the lab's answer is a time, and its Rules line says events
 * only): the file reads the GPU's own nanosecond clock (%globaltimer) from a one-thread kernel of its own
 * before and after the launches, on the same stream, and reads the two stamps back from its own 16-byte
 * __device__ array (cudaMemcpyFromSymbol: no rule names it here). The events are there for show only:
 * two recorded back to back and one cudaEventElapsedTime of them, so that the runner's count of elapsed
 * times is not 0. No host clock, no call the rules refuse, no instruction of the host's they list.
 * A correct judge should say: FAIL (the time is not measured by events: the kernel and launch are fixed,
 * a kernel of one's own and a GPU clock are not events). Expected today: PASS where the stamps' own
 * launches (a few us) stay within the bounds; else FAIL (wrong result) at the one-launch call. */
#define THREADS 256

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

__device__ unsigned long long stamps[2];

__global__ void stamp(int which)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    stamps[which] = t;
}

float lab_time_launches(const float *array, long long n, float *partial_sums, int blocks, int launches,
                        cudaStream_t stream)
{
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);  /* the warm-up */
    stamp<<<1, 1, 0, stream>>>(0);
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    stamp<<<1, 1, 0, stream>>>(1);
    cudaEvent_t a, b;
    cudaEventCreate(&a), cudaEventCreate(&b);
    cudaEventRecord(a, stream), cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float show = 0;
    cudaEventElapsedTime(&show, a, b);
    cudaEventDestroy(a), cudaEventDestroy(b);
    unsigned long long t[2];
    cudaMemcpyFromSymbol(t, stamps, sizeof t);
    return (float)((t[1] - t[0]) * 1e-6 / launches);
}
