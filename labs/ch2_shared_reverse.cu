/* Lab ch2_shared_reverse: a __shared__ tile and __syncthreads() in one block (chapter 2).
 *
 * The array is cut in segments of 256 elements, one for each block of 256 threads (the launch below is
 * fixed). Write the kernel reverse_segments: each block copies its segment from in to out, reversed:
 * with first = blockIdx.x * 256, out[first] = in[first + 255], out[first + 1] = in[first + 254], ...
 * The last segment holds what is left of n, and is reversed within its own length. Go through a
 * __shared__ tile: each thread loads one element; __syncthreads() waits for the whole tile; then each
 * thread writes the element at its mirrored place, which another thread loaded. Every thread of the
 * block must reach __syncthreads(): keep it out of any if. ch2_reduction/blobs.cu (Examples 2.5a and
 * 2.5b) reads a shared tile back flipped, and shows what goes wrong without the barrier.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 255, 256, 257, 512, 1000, 65613, 1000003, 2^26 + 77; timed n = 2^26 + 77.
 *   pointers: in and out, each its own cudaMalloc of exactly n floats: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: in holds any finite float (all 32 bits drawn: both zeros and subnormals, no infinity or NaN),
 *     drawn afresh for every call, and every bit must survive; out arrives filled with 0xff bytes.
 *   index: 32-bit: n is an int below 2^31 (at most 2^26 + 77 here).
 *   binding: the Rules line (rules.txt refuses shuffles and atomics), the fixed launch and what out holds;
 *     one element a thread, loaded and written back mirrored, is the course's solution.
 *
 * Rules: through shared memory (no warp shuffles), no atomics, no library. n is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_shared_reverse
 */

#define SEGMENT 256  /* elements in a segment, and threads in a block */

__global__ void reverse_segments(const float *in, float *out, int n)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU. */
void lab_reverse_segments(const float *in, float *out, int n)
{
    reverse_segments<<<(n + SEGMENT - 1) / SEGMENT, SEGMENT>>>(in, out, n);
}
