/* Lab ch1_block_index: which thread am I? A block's index, and a thread's place in its block (chapter 1).
 *
 * The launch below is given: (n + 63) / 64 blocks of 64 threads. Write the kernel whoami: the thread
 * whose global index is i = blockIdx.x * blockDim.x + threadIdx.x writes the index of its block into
 * block_of[i] and its place in the block into thread_of[i], for every i < n. Element 130, for one, is
 * thread 2 of block 2. The last block reaches past n: its extra threads must write nothing (a guard).
 * ch1_embarrassing/add_array.cu computes the same i, in global_index().
 *
 * Rules: no atomics, no library. n is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel writes 8 bytes per element).
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
