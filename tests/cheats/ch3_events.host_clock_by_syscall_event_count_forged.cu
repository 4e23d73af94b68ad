/* Attack (class 7 of issue 49 again; needs a GPU to confirm). ch3_events: "no clock of the host: the times
 * are the events', measured on the GPU". Two defenses stand: rules.txt refuses clock_gettime, gettimeofday,
 * time, clock, timespec_get, ftime and std::chrono by name, and the judge requires the call to have read an
 * event's time (labs/judge/ch3_events.cu ~line 139: lab->elapsed > 0, the runner's count of
 * cudaEventElapsedTime calls, launches.c lab_elapsed). Both fall to plain C:
 *  - the clock: libc's syscall(SYS_clock_gettime, ...), a function named "syscall", which no line refuses
 *    (no hidden instruction, no vDSO walk: tests/cheats/ch3_events.host_clock_from_the_vdso.cu's road);
 *  - the count: lab_elapsed is a global of the runner's executable; an extern declaration reaches it.
 * This file creates no event: a warm-up launch, a wait, the host's clock, the launches, a wait, the clock,
 * the mean; then lab_elapsed = 1. What is left to catch it is the bounds alone, which the corpus's own
 * header says a host clock may well stay inside ("Marked so that a GPU run says which it is").
 * Expected on a GPU: PASS where the corpus's vDSO file passes the bounds; it no longer fails on the count.
 * Fix: rules.sh: refuse undefined references to the runner's own names (lab_launches, lab_elapsed,
 * __real_*, __wrap_*, lab_runner_touch, lab_call, lab_ranks_*); rules.txt ch3_events: add
 * syscall|clock_getres|clock_nanosleep|timerfd_.*|times|getrusage|sysconf to the clock line (and the rdtsc
 * instruction cannot be seen by nm: the bounds must carry it). */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern "C" unsigned lab_elapsed;  /* labs/runner/launches.c */

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
static double host_ms(void)
{
    struct timespec t;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The runner calls this with array (n floats) and partial_sums (blocks floats) on the GPU, and a stream
 * it made. Returns the milliseconds of one launch, the mean of `launches` launches. */
float lab_time_launches(const float *array, long long n, float *partial_sums, int blocks, int launches,
                        cudaStream_t stream)
{
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);  /* warm-up */
    cudaStreamSynchronize(stream);
    double t0 = host_ms();
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    cudaStreamSynchronize(stream);
    double t1 = host_ms();
    lab_elapsed = 1;  /* "a time read from a CUDA event" */
    return (float)((t1 - t0) / launches);
}
