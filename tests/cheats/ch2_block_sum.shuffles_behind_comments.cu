/* A forgery, class 3 of issue 49 (the PTX rules were regular expressions over PTX text). ch2_block_sum
 * forbids warp shuffles: every step of the tree must go through shared memory. This file does the first
 * five steps of each warp with shuffles, written in inline asm as `shfl/<empty comment>.sync.down.b32`:
 * ptxas reads the comment as a space, the rule's pattern `shfl\.` never matches. Only the eight warps'
 * sums go through shared memory. The sum is right; the old judge (on an H200): PASS, 103% of the solution.
 * Why it must fail: the rules now read the machine code (SASS), where the instruction is SHFL.DOWN
 * whatever its PTX spelling: refused without a GPU. */

#define THREADS 256

__device__ float down(float v, int offset)
{
    float r;
    asm volatile("shfl/**/.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v), "r"(offset));
    return r;
}

__device__ float warp_tree(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += down(v, offset);
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float warps[THREADS / 32];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    sum = warp_tree(sum);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = warp_tree(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
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
