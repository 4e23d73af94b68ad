/* Lab ch2_debug_warp, a solution: the last steps in registers, with warp shuffles (warp_shuffle.cu).
 *
 * racecheck named the tail's lines: lane i read s[i + 16] while lane i + 16 wrote it, with nothing
 * between the two, and the compiler, free to assume that no other thread writes s there, had kept each
 * lane's sum in a register and stored it once, after all its reads (the sums were wrong on every run).
 * Shuffles leave shared memory: the tail's 32 lanes fold the last 64 values into one each, then each
 * step adds the value of the lane `offset` above. tid < 32 is the whole first warp, so all 32 lanes
 * call every shuffle, and the mask names them all.
 *   make lab L=ch2_debug_warp FILE=labs/solutions/ch2_debug_warp.cu
 */

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    s[tid] = sum;
    __syncthreads();  /* every thread's sum is in s */
    for (int i = THREADS / 2; i > 32; i /= 2) {  /* the tree, while it spans several warps */
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();
    }
    if (tid < 32) {  /* the last 64 values: the first warp's work, all 32 of its lanes */
        float v = s[tid] + s[tid + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffff, v, offset);  /* every lane calls it: every lane in the mask */
        if (tid == 0)
            block_sums[blockIdx.x] = v;
    }
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
