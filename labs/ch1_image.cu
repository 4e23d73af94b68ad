/* Lab ch1_image: a 2D kernel over a picture (chapter 1, Example 1.5).
 *
 * Write the kernel mirror and its launch: out[y][x] = in[y][width - 1 - x], the picture flipped left to
 * right. Both are row-major, width x height floats. Launch 2D blocks (16 x 16 is a good start) in a 2D
 * grid that covers the whole picture: the widths and heights here are rarely multiples of 16, so the
 * kernel needs a guard on each of x and y.
 *
 * Rules: one thread per pixel (no loop), no library.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
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
