/* Lab ch1_one_thread_each: one thread per element, and a launch that covers the array (chapter 1).
 *
 * Write the kernel square, y[i] = x[i] * x[i] for every i < n, with one thread per element, and its
 * launch: blocks of 256 threads, and enough blocks to cover all n elements. n is rarely a multiple of
 * 256, so round the number of blocks up; the last block then reaches past the end of the arrays, and
 * its extra threads must do nothing (a guard: if (i < n)). ch1_embarrassing/add_array.cu (Examples 1.2
 * and 1.3) does all of this for c = a + b.
 *
 * Contract:
 *   sizes: checked n = 1000, 1, 31, 32, 33, 255, 256, 257, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x and y, each its own cudaMalloc of exactly n floats: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1 (a grid of 0 blocks is a launch CUDA refuses).
 *   values: x uniform in [-4, 4) (24 random bits), drawn afresh for every call; y arrives filled with NaN.
 *   index: 32-bit: n is an int below 2^31 (at most 2^26 + 1 here).
 *   binding: the Rules line and what square computes; blocks of 256 threads, rounded up, are the lesson's
 *     launch, which the judge does not check (any launch of one thread per element will do).
 *
 * Rules: one thread per element (no loop), no atomics, no library. n is below 2^31: an int index will do.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_one_thread_each
 */

__global__ void square(const float *x, float *y, int n)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU: launch square here. */
void lab_square(const float *x, float *y, int n)
{
    /* your launch here */
}
