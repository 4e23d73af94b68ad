/* Accepted: an honest ch2_warp_sum saved with a UTF-8 byte-order mark before its first line, as some
 * editors save a file (the build step strips the mark before the #line it puts first; nvcc takes a file
 * that starts with one). Its shuffles are the lab's lesson: no rule of ch2_warp_sum refuses SHFL. */
#define THREADS 256

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float warps[THREADS / 32];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            block_sums[blockIdx.x] = sum;
    }
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    block_sum<<<32 * sms, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, 32 * sms, result);
}
