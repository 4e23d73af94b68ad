/* Lab ch1_grid_2d, a solution: one thread per element in a 2D grid (chapter 1, Example 1.5).
 *
 * threadIdx.x runs along a row, so the 16 threads of a half-warp read 16 neighbouring floats and write
 * 16 neighbours. The grid is rounded up on both axes: it overhangs the matrix on the right and at the
 * bottom, and the guard keeps those threads out.
 *   make lab L=ch1_grid_2d FILE=labs/solutions/ch1_grid_2d.cu
 */

__global__ void add_bias(const float *in, const float *bias, float *out, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;  /* x: along a row */
    int row = blockIdx.y * blockDim.y + threadIdx.y;  /* y: down the matrix */
    if (row < height && col < width)
        out[row * width + col] = in[row * width + col] + bias[col];
}

/* The runner calls this with the matrices on the GPU: launch add_bias here. */
void lab_add_bias(const float *in, const float *bias, float *out, int width, int height)
{
    dim3 threads(16, 16);
    dim3 blocks((width + 15) / 16, (height + 15) / 16);  /* x covers the width, y the height */
    add_bias<<<blocks, threads>>>(in, bias, out, width, height);
}
