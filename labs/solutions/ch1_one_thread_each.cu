/* Lab ch1_one_thread_each, a solution: one thread per element (chapter 1, Examples 1.2 and 1.3).
 *
 * Each thread finds its element from its block's index and its place in the block. The number of blocks
 * is a ceiling division, so the grid covers n; the threads of the last block that fall past the end
 * find i >= n and do nothing.
 *   make lab L=ch1_one_thread_each FILE=labs/solutions/ch1_one_thread_each.cu
 */

__global__ void square(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * x[i];
}

/* The runner calls this with arrays on the GPU: launch square here. */
void lab_square(const float *x, float *y, int n)
{
    int blocks = (n + 255) / 256;  /* rounded up: 1000 elements take 4 blocks, the last one partly idle */
    square<<<blocks, 256>>>(x, y, n);
}
