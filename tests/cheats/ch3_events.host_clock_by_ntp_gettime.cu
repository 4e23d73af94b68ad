/* A forgery (the rules' `call` line for ch3_events): a host clock that the rule does not name. glibc's
 * ntp_gettime reads the system clock (CLOCK_REALTIME, in microseconds) without calling clock_gettime,
 * gettimeofday or time: the launches are timed on the host, around a cudaStreamSynchronize, no events.
 * Why it must fail: "no clock of the host" (rules.txt); the call is refused by name. */
#include <sys/timex.h>

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


static double now_ms(void)
{
    struct ntptimeval t;
    ntp_gettime(&t);
    return t.time.tv_sec * 1e3 + t.time.tv_usec * 1e-3;
}

float lab_time_launches(const float *array, long long n, float *partial_sums, int blocks, int launches,
                        cudaStream_t stream)
{
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);  /* warm-up */
    cudaStreamSynchronize(stream);
    double t0 = now_ms();
    for (int i = 0; i < launches; i++)
        partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    cudaStreamSynchronize(stream);
    return (float)((now_ms() - t0) / launches);
}
