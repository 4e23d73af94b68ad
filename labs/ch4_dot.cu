/* Lab ch4_dot: a dot product finished with one atomic per block (chapter 4, Example 4.5's dot product,
 * without the mutex).
 *
 * Write the kernel dot: *result = the sum of x[i] * y[i] for i < n. Each thread adds its products (a
 * grid-stride loop), the block adds its threads' sums as a tree in __shared__ memory (ch2_block_sum),
 * and thread 0 adds the block's sum to *result with atomicAdd: one atomic per block, not one per
 * element. The launch zeroes *result first; it is given.
 *
 * Rules: no CUB, no second kernel, no mutex. Float atomics add in no fixed order: the result may differ
 * in its last bits from run to run, within the tolerance.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 8 bytes per element).
 *   make lab L=ch4_dot
 */

#define THREADS 256

__global__ void dot(const float *x, const float *y, long long n, float *result)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU. */
void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemsetAsync(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
}
