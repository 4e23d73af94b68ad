/* Lab ch1_map: a map over an array with a grid-stride loop (chapter 1, Examples 1.3 and 1.4).
 *
 * Write the kernel saxpy: y[i] = a * x[i] + y[i] for every i < n, in place. The launch below is fixed:
 * 32 blocks of 256 threads per SM, far fewer threads than elements when n is large, so each thread must
 * step through the array by the number of threads in the grid (a grid-stride loop), and stop at n.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1025, 1000003, 2^26 + 1, then 2^31 + 3 on a GPU with 17.2 GB
 *     free (elsewhere the report says it skipped it); timed n = 2^26 + 1.
 *   pointers: x and y, each its own cudaMalloc of exactly n floats: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: a uniform in [0.25, 0.75), x and y in [1, 2) (24 random bits), drawn afresh for every call.
 *   index: 64-bit: n is a long long, and passes 2^31 where the GPU has the memory.
 *   binding: the Rules line and the fixed launch; the grid-stride loop is what that launch needs.
 *
 * Rules: one kernel, no atomics, no library. n can be 1, a prime, or past 2^31 (use long long for the
 * index).
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 8 bytes and writes 4 per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_map
 */

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    /* your code here */
}

/* The harness calls this with arrays on the GPU. */
void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
