/* Lab ch1_grid_2d: a 2D grid of 2D blocks over a matrix (chapter 1).
 *
 * Write the kernel add_bias and its launch: out[row][col] = in[row][col] + bias[col]. in and out hold
 * height rows of width floats, row after row (element (row, col) is at row * width + col); bias holds
 * width floats, added to every row. One thread per element, in 16 x 16 blocks (dim3 threads(16, 16))
 * and a 2D grid of them: x gives the column, y the row. width and height are rarely multiples of 16:
 * round the grid up on each axis, and guard both. ch1_embarrassing/adjust_log.cu (Example 1.5)
 * launches 2D blocks in a 2D grid.
 *
 * Contract:
 *   sizes: checked width x height = 16 x 16, 31 x 17, 1 x 1, 33 x 1, 1 x 33, 17 x 31, 1000 x 3, 3 x 1000,
 *     257 x 255, 8191 x 8193; timed 8191 x 8193.
 *   pointers: in, bias and out, each its own cudaMalloc of exactly its floats: 256-byte aligned, never
 *     offset; a row is width floats, with no padding between rows.
 *   zero: width and height are at least 1.
 *   values: in and bias uniform in [-4, 4) (24 random bits), drawn afresh for every call; out arrives
 *     filled with NaN.
 *   index: 32-bit: width x height is below 2^31 (at most 67,108,863 here).
 *   binding: the Rules line and what add_bias computes; the 16 x 16 blocks in a 2D grid are the lesson's
 *     launch, which the judge does not check.
 *
 * Rules: one thread per element (no loop), no atomics, no library. width * height is below 2^31.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per element; bias stays in the cache).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
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
