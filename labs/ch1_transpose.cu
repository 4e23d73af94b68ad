/* Lab ch1_transpose: a matrix transpose through shared memory (chapter 1's coalescing; chapter 2's
 * shared memory).
 *
 * Write the kernel transpose: out = in transposed, where in is rows x cols and out is cols x rows, both
 * row-major. A direct out[x][y] = in[y][x] reads along rows but writes down columns, one 32-byte sector
 * per float. Instead, let each block of 32 x 8 threads read a 32 x 32 tile of in, along its rows, into
 * __shared__ memory (each thread four rows, 8 apart), wait for the whole tile, then write it to out along
 * out's rows, reading the tile down its columns. A tile of 32 x 33 floats keeps that column read free of
 * bank conflicts. Guard both edges: rows and cols are rarely multiples of 32.
 *
 * Rules: the launch below is fixed (one block per 32 x 32 tile), no library.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
 *   make lab L=ch1_transpose
 */

#define TILE 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    /* your code here */
}

/* The runner calls this with matrices on the GPU. */
void lab_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 threads(TILE, 8);
    dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<blocks, threads>>>(in, out, rows, cols);
}
