/* Lab ch2_warp_sum, a solution: shuffles inside each warp, shared memory only between warps (8 values
 * instead of 256), one __syncthreads() instead of eight.
 *   make lab L=ch2_warp_sum FILE=labs/solutions/ch2_warp_sum.cu
 */

#define THREADS 256

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);  /* lane i adds lane i + offset's value */
    return v;  /* lane 0 holds the warp's sum */
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();  /* every warp's sum is in warp_sums */
    if (warp == 0) {
        sum = warp_sum(lane < THREADS / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            block_sums[blockIdx.x] = sum;
    }
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
