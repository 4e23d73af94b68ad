/* Lab ch1_image, a solution: one thread per pixel in a 2D grid (chapter 1, Example 1.5).
 *
 * threadIdx.x runs along a row, so a warp reads 32 neighbouring floats and writes 32 neighbours: both
 * coalesced (the read runs backwards, which the memory does not mind). The grid overhangs the picture
 * on the right and at the bottom; the guard keeps those threads out.
 *   make lab L=ch1_image FILE=labs/solutions/ch1_image.cu
 */

__global__ void mirror(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[(long long)y * width + x] = in[(long long)y * width + (width - 1 - x)];
}

/* The runner calls this with pictures on the GPU: launch mirror here. */
void lab_mirror(const float *in, float *out, int width, int height)
{
    dim3 threads(16, 16);
    dim3 blocks((width + threads.x - 1) / threads.x, (height + threads.y - 1) / threads.y);
    mirror<<<blocks, threads>>>(in, out, width, height);
}
