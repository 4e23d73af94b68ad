/* A forgery: clock_gettime called by its versioned name. `.symver` makes the object's undefined symbol
 * "clock_gettime@GLIBC_2.17", which nm -u prints as it is: the rule's anchored pattern ^(clock_gettime)$
 * never sees "clock_gettime", and the linker binds it to glibc's clock_gettime all the same. The launches
 * are timed on the host around a cudaStreamSynchronize, no events.
 * Why it must fail: "no clock of the host"; a call's name is read without its @VERSION. */
#include <time.h>

extern "C" int host_clock(clockid_t, struct timespec *);
__asm__(".symver host_clock, clock_gettime@GLIBC_2.17");

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
    struct timespec t;
    host_clock(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
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
