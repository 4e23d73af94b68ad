/* Lab ch2_block_sum: a reduction in shared memory (chapter 2, Example 2.2).
 *
 * Write the kernel block_sum: each block of THREADS threads adds up its share of x and writes one number,
 * block_sums[blockIdx.x]. Each thread first adds its elements with a grid-stride loop (chapter 1), puts
 * its sum in a __shared__ array, and then the block adds those THREADS values as a tree: half the threads
 * add pairs, then a quarter, ... until element 0 holds the block's sum. Every step reads what other
 * threads wrote in the step before: a __syncthreads() between steps, reached by every thread.
 * The launch below is given: a first pass leaves one sum per block, a second pass of one block adds
 * them up into *result.
 *
 * Rules: no atomics, no warp shuffles, no CUB. n can be 1, a prime, or large.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceReduce::Sum on the same array.
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
