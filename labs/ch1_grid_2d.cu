/* Lab ch1_grid_2d: a 2D grid of 2D blocks over a matrix (chapter 1).
 *
 * Write the kernel add_bias and its launch: out[row][col] = in[row][col] + bias[col]. in and out hold
 * height rows of width floats, row after row (element (row, col) is at row * width + col); bias holds
 * width floats, added to every row. One thread per element, in 16 x 16 blocks (dim3 threads(16, 16))
 * and a 2D grid of them: x gives the column, y the row. width and height are rarely multiples of 16:
 * round the grid up on each axis, and guard both. ch1_embarrassing/adjust_log.cu (Example 1.5)
 * launches 2D blocks in a 2D grid.
 *
 * Rules: one thread per element (no loop), no atomics, no library. width * height is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per element; bias stays in the cache).
 *   make lab L=ch1_grid_2d
 */

__global__ void add_bias(const float *in, const float *bias, float *out, int width, int height)
{
    /* your code here */
}

/* The runner calls this with the matrices on the GPU: launch add_bias here. */
void lab_add_bias(const float *in, const float *bias, float *out, int width, int height)
{
    /* your launch here */
}
