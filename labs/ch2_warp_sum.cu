/* Lab ch2_warp_sum: the last steps of a reduction with warp shuffles (chapter 2, going further:
 * warp_shuffle.cu).
 *
 * 1. Write warp_sum: the 32 threads of a warp each hold a value v; return their sum (in lane 0 at
 *    least) with __shfl_down_sync(0xffffffff, v, offset) for offset = 16, 8, 4, 2, 1. No shared memory
 *    and no __syncthreads(): a warp's lanes exchange registers directly.
 * 2. Write block_sum: each thread adds its elements with a grid-stride loop, each warp adds its 32 sums
 *    with warp_sum, lane 0 of each warp puts the warp's sum in a __shared__ array of THREADS / 32, and
 *    after a __syncthreads() the first warp adds those with warp_sum again. Thread 0 writes
 *    block_sums[blockIdx.x]. The launch (two passes, as in ch2_block_sum) is fixed.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x, partial (32 x sms floats) and result (one float), each its own cudaMalloc of exactly that:
 *     256-byte aligned, never offset; partial and result arrive filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x positive, uniform in [s / 2, 3 s / 2) for a scale s drawn for each call between 2^-30 and
 *     2^31: every value and sum a normal float.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launch (the tolerance counts the additions it makes); the
 *     shuffles and the steps of 1. and 2. are the lesson's way, which the judge does not check (it checks
 *     the sum).
 *
 * Rules: no atomics, no CUB, no cooperative groups.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceReduce::Sum on the same array.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_warp_sum
 */

#define THREADS 256

__device__ float warp_sum(float v)
{
    /* your code here */
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
