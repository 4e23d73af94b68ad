/* An honest file: ch2_block_sum written another way. Each thread keeps four sums, one for each lane of
 * a float4 (a grid-stride loop over whole vectors, then the n % 4 elements left, one each to the first
 * threads), and adds them pairwise; the block then adds its THREADS sums as a tree of four branches a
 * step, 256 -> 64 -> 16 -> 4 -> 1, each step's four values added pairwise, with a __syncthreads() after
 * every step, reached by every thread. No atomics, no shuffles: every step goes through shared memory.
 * An element goes through no more additions than in the binary tree (two a step, four steps). It must
 * PASS: right at every size, racecheck-clean, as fast as the course's solution. */

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    long long stride = (long long)blockDim.x * gridDim.x;
    long long first = blockIdx.x * (long long)blockDim.x + tid;
    long long vectors = n / 4;
    const float4 *x4 = (const float4 *)x;  /* x comes from cudaMalloc: aligned for float4 */
    float4 sum4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (long long v = first; v < vectors; v += stride) {
        float4 xv = x4[v];
        sum4.x += xv.x;
        sum4.y += xv.y;
        sum4.z += xv.z;
        sum4.w += xv.w;
    }
    long long i = 4 * vectors + first;  /* the tail: 0 to 3 elements */
    if (i < n)
        sum4.x += x[i];
    s[tid] = (sum4.x + sum4.y) + (sum4.z + sum4.w);
    __syncthreads();
    for (int quarter = THREADS / 4; quarter > 0; quarter /= 4) {
        if (tid < quarter)  /* reads quarter..4 quarter - 1, writes 0..quarter - 1: no overlap in a step */
            s[tid] = (s[tid] + s[tid + quarter]) + (s[tid + 2 * quarter] + s[tid + 3 * quarter]);
        __syncthreads();  /* outside the if: every thread reaches it */
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
