/* An honest file: ch3_stencil written another way, which also times its first step with two CUDA events
 * and prints it (the statement forbids neither; the old rules refused every event call). The launch is
 * the statement's; each thread walks ROWS rows down its column with the rows above, at and below it in
 * registers, and takes its left and right neighbours from the lanes beside it (__shfl_up_sync and
 * __shfl_down_sync); only a warp's two end lanes read theirs from memory. So every thread of a warp stays
 * in the walk to the end (the shuffles need all 32), loads only inside the plate, and writes only inside
 * points. The sum is the statement's, in its order: 0.25f * ((up + down) + (left + right)). It must
 * PASS: exact at every size, memcheck-clean, at least 70% of the course's solution's speed. */
#include <stdio.h>

#define THREADS 128
#define ROWS 16

__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int row = 1 + blockIdx.y * ROWS;
    int end = row + ROWS < n - 1 ? row + ROWS : n - 1;  /* the same for the whole block */
    bool inside = col < n;                              /* may load */
    bool written = col >= 1 && col <= n - 2;            /* may store */
    long long i = (long long)row * n + col;
    float up = inside ? in[i - n] : 0.0f, mid = inside ? in[i] : 0.0f;
    for (; row < end; row++, i += n) {
        float down = inside ? in[i + n] : 0.0f;
        float left = __shfl_up_sync(0xffffffffu, mid, 1), right = __shfl_down_sync(0xffffffffu, mid, 1);
        if (lane == 0 && written)
            left = in[i - 1];
        if (lane == 31 && written)
            right = in[i + 1];
        if (written)
            out[i] = 0.25f * ((up + down) + (left + right));
        up = mid;
        mid = down;
    }
}

/* The runner calls this once a step with plates on the GPU; in and out swap between steps. */
void lab_jacobi_step(const float *in, float *out, int n)
{
    static int timed;
    cudaEvent_t start = NULL, stop = NULL;
    if (!timed) {  /* the first step: how long does one take? */
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        cudaEventRecord(start, 0);
    }
    dim3 blocks((n + THREADS - 1) / THREADS, (n - 2 + ROWS - 1) / ROWS);
    jacobi_step<<<blocks, THREADS>>>(in, out, n);
    if (!timed) {
        timed = 1;
        cudaEventRecord(stop, 0);
        float ms = 0.0f;
        if (cudaEventSynchronize(stop) == cudaSuccess && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess)
            printf("my first step, n = %d: %.3f ms\n", n, ms);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
}
