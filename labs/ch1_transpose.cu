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
 * Contract:
 *   sizes: checked rows x cols = 1 x 1, 31 x 33, 32 x 32, 1 x 1025, 1025 x 33, 33 x 1025, 1023 x 1025,
 *     8193 x 4099; timed 8193 x 4099.
 *   pointers: in and out, each its own cudaMalloc of exactly rows x cols floats: 256-byte aligned, never
 *     offset; a row is cols floats (out's: rows floats), with no padding between rows.
 *   zero: rows and cols are at least 1.
 *   values: in uniform in [0, 1) (24 random bits), drawn afresh for every call; out arrives filled with
 *     NaN, and is compared exactly.
 *   index: 32-bit: rows x cols is below 2^31 (at most 33,583,107 here).
 *   binding: the Rules line and its fixed launch; the shared tile, four rows a thread and the rows of 33
 *     floats are the course's solution.
 *
 * Rules: the launch below is fixed (one block per 32 x 32 tile); no atomics, no library.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
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
