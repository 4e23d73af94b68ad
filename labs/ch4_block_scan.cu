/* Lab ch4_block_scan: an inclusive scan inside one block (chapter 4, going further: scan.cu's first
 * kernel).
 *
 * Write the kernel block_scan: the array is cut into segments of THREADS = 1024 elements (the last one
 * shorter), one block each; within its segment, out[i] = in[first] + ... + in[i], where first is the
 * segment's first index. Load the segment into __shared__ memory (0 past n), then in log2(1024) = 10
 * steps, offset = 1, 2, 4, ..., 512: every thread t >= offset adds the value offset places below it
 * (Hillis and Steele). Each step reads values other threads write in the same step: read, wait for
 * everyone, write, wait for everyone.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1024, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: in and out, each its own cudaMalloc of exactly n unsigned: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: unsigned, all 32 bits random, drawn afresh for every call; sums wrap modulo 2^32, as unsigned
 *     additions do. out arrives filled with 0xff bytes.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and out, scanned in segments of 1024; the launch, the shared tile and Hillis
 *     and Steele's steps are the course's solution.
 *
 * Rules: no CUB, no atomics, no warp shuffles. Integers: the result is exact.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch4_block_scan
 */

#define THREADS 1024

__global__ void block_scan(const unsigned *in, unsigned *out, long long n)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU. */
void lab_block_scan(const unsigned *in, unsigned *out, long long n)
{
    block_scan<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
