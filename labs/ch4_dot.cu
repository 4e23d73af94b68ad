/* Lab ch4_dot: a dot product finished with one atomic per block (chapter 4, Example 4.6's dot product,
 * without the mutex).
 *
 * Write the kernel dot: *result = the sum of x[i] * y[i] for i < n. Each thread adds its products (a
 * grid-stride loop), the block adds its threads' sums as a tree in __shared__ memory (ch2_block_sum),
 * and thread 0 adds the block's sum to *result with atomicAdd: one atomic per block, not one per
 * element. The launch zeroes *result first; it is fixed.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x, y (n floats each) and result (one float), each its own cudaMalloc of exactly that: 256-byte
 *     aligned, never offset; result arrives filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x and y positive, each uniform in [s / 2, 3 s / 2) for a scale s of its own drawn for each call
 *     between 2^-30 and 2^31, and 1 to 8 elements of x, at places drawn for the call, 2^20 times larger:
 *     every product and sum a normal float.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launch (the tolerance counts the roundings its 32 x sms blocks
 *     make); the tree in shared memory is the course's solution.
 *
 * Rules: no CUB, no second kernel, no mutex. Float atomics add in no set order: the result may differ
 * in its last bits from run to run, within the tolerance.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 8 bytes per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
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
