/* An honest file: ch2_cooperative_groups written without cooperative groups, with the warp intrinsics of
 * ch2_warp_sum (__shfl_down_sync with the whole warp's mask, __syncthreads()). The statement says that
 * nothing checks the groups, since they compile to the same instructions, and that such a file passes
 * too: this one holds it to that. It must PASS: right at every size, racecheck-clean, as fast as the
 * course's solution. */

#define THREADS 256

__device__ float tile_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)THREADS + threadIdx.x; i < n; i += (long long)THREADS * gridDim.x)
        sum += x[i];
    sum = tile_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = tile_sum(lane < THREADS / 32 ? warp_sums[lane] : 0.0f);
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
