/* Lab ch2_debug_barrier: a race on a shared tile, found with racecheck (chapter 2, Example 2.5).
 *
 * A debugging lab: the code below is written, and it has a bug. Each block of 16 x 16 threads copies a
 * 16 x 16 tile of a picture (row-major floats) into shared memory and writes it back turned half a turn:
 * the tile's pixel (tx, ty) takes the value of its pixel (w - 1 - tx, h - 1 - ty), w x h being the
 * tile's size (16 x 16, less at the picture's right and bottom edges). It is blobs.cu's tile, on a
 * picture of any shape. Run `make lab L=ch2_debug_barrier`: step 1 finds wrong pixels at most shapes
 * (which ones can change from run to run), and step 2's racecheck reports a race. Make the file correct
 * and racecheck-clean, changing as little as you can.
 *
 * racecheck watches shared memory. It reports two threads of a block that touch the same shared
 * address, one of them writing, with no barrier between the two accesses: their order is left to chance.
 * make lab prints one line per race, for example (from another lab)
 *   racecheck: shared-memory race in transpose (write at my_transpose.cu:15 and read at my_transpose.cu:21) [x5]
 * taken from the tool's report, "Error: Race reported between Write access at transpose(...)+0x1b0 in
 * my_transpose.cu:15 and Read access at transpose(...)+0x2c0 in my_transpose.cu:21 [512 hazards]": the
 * kernel and two source lines (recorded because make lab builds with -lineinfo). A thread wrote at the
 * first line what another thread read at the second, with nothing to make the reader wait. A whole report:
 * `compute-sanitizer --tool racecheck ./ch2_reduction/blobs`, the course's program whose second kernel
 * races. __syncthreads() makes each thread of the block wait there for all the others, so every thread
 * must reach it: never put it inside an if that some threads skip (compute-sanitizer's synccheck looks for
 * such barriers, and a kernel with one can hang).
 *
 * Contract:
 *   sizes: checked width x height = 1 x 1, 31 x 33, 33 x 31, 1025 x 1, 1 x 1025, 1025 x 7, 1023 x 1025,
 *     8191 x 4097; timed 8191 x 4097.
 *   pointers: in and out, each its own cudaMalloc of exactly width x height floats: 256-byte aligned, never
 *     offset; a row is width floats, with no padding between rows.
 *   zero: width and height are at least 1.
 *   values: in holds any finite float (all 32 bits drawn), drawn afresh for every call, and every bit must
 *     survive; out arrives filled with 0xff bytes.
 *   index: 32-bit: width x height is below 2^31 (at most 33,558,527 here).
 *   binding: the Rules line and the fixed launch: the fix is to the bug, not to the design.
 *
 * Rules: keep one thread per pixel; the launch is fixed; no atomics.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per pixel).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_debug_barrier
 */

#define TILE 16

__global__ void turn_tiles(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    int w = min(TILE, width - (int)blockIdx.x * TILE), h = min(TILE, height - (int)blockIdx.y * TILE);
    if (x < width && y < height) {
        tile[ty][tx] = in[(long long)y * width + x];
        out[(long long)y * width + x] = tile[h - 1 - ty][w - 1 - tx];
    }
}

/* The runner calls this with pictures on the GPU. */
void lab_turn_tiles(const float *in, float *out, int width, int height)
{
    dim3 threads(TILE, TILE), blocks((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    turn_tiles<<<blocks, threads>>>(in, out, width, height);
}
