/* Lab ch1_debug_bounds, a solution: the pair is taken whole only when both its pixels are in the row.
 *
 * memcheck named the loads and stores of the pair's second pixel. x steps by even numbers, so at an odd
 * width the last x of a row is width - 1, and x + 1 is the first pixel of the next row: right there
 * (the value written is the one that pixel gets anyway), but past the end of both arrays on the last
 * row. The loop's guard looks at x alone; the fix gives the row's last pixel its own branch, so that
 * every pixel is still written, once.
 *   make lab L=ch1_debug_bounds FILE=labs/solutions/ch1_debug_bounds.cu
 */

__global__ void adjust_log(const float *in, float *out, int width, int height, float gain)
{
    int stride_x = 2 * blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = 2 * (threadIdx.x + blockIdx.x * blockDim.x); x < width; x += stride_x) {
            long long i = (long long)y * width + x;  /* pixels x and x + 1 of row y */
            if (x + 1 < width) {
                float a = in[i], b = in[i + 1];      /* both loads in flight before either is used */
                out[i] = gain * log2f(1.0f + a);
                out[i + 1] = gain * log2f(1.0f + b);
            } else {                                 /* an odd width: the row's last pixel is alone */
                out[i] = gain * log2f(1.0f + in[i]);
            }
        }
}

/* The runner calls this with pictures on the GPU. */
void lab_adjust_log(const float *in, float *out, int width, int height, float gain)
{
    dim3 threads(16, 16), blocks(64, 64);  /* the article's launch, whatever the picture's size */
    adjust_log<<<blocks, threads>>>(in, out, width, height, gain);
}
