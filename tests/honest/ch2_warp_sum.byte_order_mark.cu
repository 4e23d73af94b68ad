/* An honest file, saved with a UTF-8 byte-order mark (the three bytes EF BB BF before this comment, as
 * some editors on Windows write them): the compiler takes it, and so must the grade (the old one put its
 * #line before the mark, which then stood in the middle of the file: "stray \357 in program").
 * ch2_warp_sum written another way: each thread keeps two sums, for the elements of even and odd passes
 * of its grid-stride loop (two loads in flight), then adds them; warp_sum is the statement's five
 * __shfl_down_sync steps, and each warp's lane 0 leaves its sum in shared memory for the first warp.
 * It must PASS: within the tolerance, racecheck-clean, as fast as the course's solution. */

#define THREADS 256

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset >= 1; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;  /* lane 0 has the warp's sum */
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float sums[THREADS / 32];
    long long stride = (long long)blockDim.x * gridDim.x;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    float even = 0.0f, odd = 0.0f;
    for (; i + stride < n; i += 2 * stride) {
        even += x[i];
        odd += x[i + stride];
    }
    if (i < n)
        even += x[i];
    float sum = warp_sum(even + odd);
    if (threadIdx.x % 32 == 0)
        sums[threadIdx.x / 32] = sum;
    __syncthreads();  /* every warp's sum is in */
    if (threadIdx.x < 32) {
        sum = warp_sum(threadIdx.x < THREADS / 32 ? sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
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
