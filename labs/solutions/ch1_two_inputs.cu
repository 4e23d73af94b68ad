/* Lab ch1_two_inputs, a solution: one thread per element, any block size (chapter 1, Examples 1.2 and 1.3).
 *
 * The kernel takes the block's size from blockDim.x, so the same kernel is right under every launch;
 * the launch rounds the number of blocks up, and the guard idles the threads past the end.
 *   make lab L=ch1_two_inputs FILE=labs/solutions/ch1_two_inputs.cu
 */

__global__ void add_arrays(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* The runner calls this with arrays on the GPU, and the block size it picked. */
void lab_add_arrays(const float *a, const float *b, float *c, int n, int threads)
{
    add_arrays<<<(n + threads - 1) / threads, threads>>>(a, b, c, n);
}
