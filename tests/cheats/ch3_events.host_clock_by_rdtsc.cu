/* A forgery: the host's time stamp counter, read with the rdtsc instruction (__rdtsc, no call), its rate
 * from CPUID leaf 0x15 (the TSC's own ratio) or 0x16 (the base clock): no function is called to read the
 * clock, so no `call` rule can see it. The launches are timed on the host, no events.
 * Why it must fail: "no clock of the host"; only a look at the host object's instructions (rdtsc, rdtscp,
 * syscall) can refuse it. */
#include <cpuid.h>
#include <x86intrin.h>

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


static double tsc_per_ms(void)
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0x15, &a, &b, &c, &d) && a && b && c)
        return (double)c * b / a / 1e3;
    if (__get_cpuid(0x16, &a, &b, &c, &d) && a)
        return a * 1e3;  /* MHz */
    return 2.0e6;
}

static double now_ms(void)
{
    static double rate = 0.0;
    if (rate == 0.0)
        rate = tsc_per_ms();
    return __rdtsc() / rate;
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
