/* Lab ch2_block_sum: a reduction in shared memory (chapter 2, Example 2.2).
 *
 * Write the kernel block_sum: each block of THREADS threads adds up its share of x and writes one number,
 * block_sums[blockIdx.x]. Each thread first adds its elements with a grid-stride loop (chapter 1), puts
 * its sum in a __shared__ array, and then the block adds those THREADS values as a tree: half the threads
 * add pairs, then a quarter, ... until element 0 holds the block's sum. Every step reads what other
 * threads wrote in the step before: a __syncthreads() between steps, reached by every thread.
 * The launch below is fixed: a first pass leaves one sum per block, a second pass of one block adds
 * them up into *result.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x, partial (32 x sms floats) and result (one float), each its own cudaMalloc of exactly that:
 *     256-byte aligned, never offset; partial and result arrive filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x positive, uniform in [s / 2, 3 s / 2) for a scale s drawn for each call between 2^-30 and
 *     2^31: every value and sum a normal float.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launch (the tolerance counts the additions it makes); the tree's
 *     steps are the lesson's way, which the judge does not check (it checks the sum).
 *
 * Rules: no atomics, no warp shuffles, no CUB. n can be 1, a prime, or large.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceReduce::Sum on the same array.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_block_sum
 */

#define THREADS 256

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
