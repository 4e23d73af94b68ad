/* Lab ch1_image: a 2D kernel over a picture (chapter 1, Example 1.5).
 *
 * Write the kernel mirror and its launch: out[y][x] = in[y][width - 1 - x], the picture flipped left to
 * right. Both are row-major, width x height floats. Launch 2D blocks (16 x 16 is a good start) in a 2D
 * grid that covers the whole picture: the widths and heights here are rarely multiples of 16, so the
 * kernel needs a guard on each of x and y.
 *
 * Contract:
 *   sizes: checked width x height = 1 x 1, 31 x 33, 33 x 31, 1025 x 1, 1 x 1025, 1025 x 7, 1023 x 1025,
 *     8191 x 4097; timed 8191 x 4097.
 *   pointers: in and out, each its own cudaMalloc of exactly width x height floats: 256-byte aligned, never
 *     offset; a row is width floats, with no padding between rows.
 *   zero: width and height are at least 1.
 *   values: in uniform in [0, 1) (24 random bits), drawn afresh for every call; out arrives filled with
 *     NaN, and is compared exactly.
 *   index: 32-bit: width x height is below 2^31 (at most 33,558,527 here).
 *   binding: the Rules line and what out holds; the launch is yours (16 x 16 blocks are advice).
 *
 * Rules: one thread per pixel (no loop), no atomics, no library.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_image
 */

__global__ void mirror(const float *in, float *out, int width, int height)
{
    /* your code here */
}

/* The runner calls this with pictures on the GPU: launch mirror here. */
void lab_mirror(const float *in, float *out, int width, int height)
{
    /* your launch here */
}
