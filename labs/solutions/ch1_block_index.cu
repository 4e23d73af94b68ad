/* Lab ch1_block_index, a solution: a thread's global index from its block and its place (chapter 1).
 *
 * blockIdx.x counts blocks, blockDim.x is the size of one (64 here), threadIdx.x the place in it: the
 * blocks before this one hold blockIdx.x * blockDim.x threads, so this thread is number i in the grid.
 * The last block holds threads past n; the guard keeps them from writing past the arrays' end.
 *   make lab L=ch1_block_index FILE=labs/solutions/ch1_block_index.cu
 */

#define THREADS 64  /* threads in a block */

__global__ void whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        block_of[i] = blockIdx.x;
        thread_of[i] = threadIdx.x;
    }
}

/* The runner calls this with arrays on the GPU. */
void lab_whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    whoami<<<(n + THREADS - 1) / THREADS, THREADS>>>(block_of, thread_of, n);
}
