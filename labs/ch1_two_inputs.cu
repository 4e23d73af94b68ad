/* Lab ch1_two_inputs: two input arrays, and a block size the kernel does not assume (chapter 1).
 *
 * Write the kernel add_arrays: c[i] = a[i] + b[i] for every i < n, one thread per element. The launch
 * below is fixed, and its block size is not yours to choose: the judge picks `threads`, a multiple of
 * 32 from 32 to 1024, and the launch rounds the number of blocks up. So the kernel must not assume 256
 * threads a block: blockDim.x is the size of the block it runs in. This is ch1_embarrassing/add_array.cu
 * (Examples 1.2 and 1.3), whose --threads option changes the block size the same way.
 *
 * Contract:
 *   sizes: checked (n, threads) = (1, 256), (1000, 256), (31, 32), (32, 32), (33, 32), (1025, 1024),
 *     (4099, 96), (100003, 128), (1000003, 512), (2^26 + 1, 256); timed (2^26 + 1, 256).
 *   pointers: a, b and c, each its own cudaMalloc of exactly n floats: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: a and b uniform in [-4, 4) (24 random bits), drawn afresh for every call; c arrives filled with
 *     NaN.
 *   index: 32-bit: n is an int below 2^31 (at most 2^26 + 1 here).
 *   binding: the Rules line, the fixed launch and what add_arrays computes; add_array.cu is an example.
 *
 * Rules: one thread per element (no loop), no atomics, no library. n is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 8 bytes and writes 4 per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_two_inputs
 */

__global__ void add_arrays(const float *a, const float *b, float *c, int n)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU, and the block size it picked. */
void lab_add_arrays(const float *a, const float *b, float *c, int n, int threads)
{
    add_arrays<<<(n + threads - 1) / threads, threads>>>(a, b, c, n);
}
