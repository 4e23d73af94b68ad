/* Lab ch2_block_sum, a solution: a grid-stride sum per thread, then a tree in shared memory with
 * sequential addressing (the active threads are the first i, so whole warps retire together and the
 * reads s[tid + i] fall in different banks).
 *   make lab L=ch2_block_sum FILE=labs/solutions/ch2_block_sum.cu
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
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();  /* outside the if: every thread of the block must reach it */
    }
    if (tid == 0)
        block_sums[blockIdx.x] = s[0];
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
