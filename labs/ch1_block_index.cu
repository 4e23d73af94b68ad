/* Lab ch1_block_index: which thread am I? A block's index, and a thread's place in its block (chapter 1).
 *
 * The launch below is fixed: (n + 63) / 64 blocks of 64 threads. Write the kernel whoami: the thread
 * whose global index is i = blockIdx.x * blockDim.x + threadIdx.x writes the index of its block into
 * block_of[i] and its place in the block into thread_of[i], for every i < n. Element 130, for one, is
 * thread 2 of block 2. The last block reaches past n: its extra threads must write nothing (a guard).
 * ch1_embarrassing/add_array.cu computes the same i, in global_index().
 *
 * Contract:
 *   sizes: checked n = 1, 63, 64, 65, 1000, 4099, 100003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: block_of and thread_of, each its own cudaMalloc of exactly n unsigned: 256-byte aligned,
 *     never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: no input; both outputs arrive filled with 0xff bytes, so every element below n must be written.
 *   index: 32-bit: n is an int below 2^31 (at most 2^26 + 1 here).
 *   binding: the Rules line, the fixed launch and what whoami writes; add_array.cu is an example to read.
 *
 * Rules: no atomics, no library. n is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel writes 8 bytes per element).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_block_index
 */

#define THREADS 64  /* threads in a block */

__global__ void whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU. */
void lab_whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    whoami<<<(n + THREADS - 1) / THREADS, THREADS>>>(block_of, thread_of, n);
}
