/* Lab ch2_debug_barrier, a solution: the tile written by the whole block before any thread reads it.
 *
 * racecheck named the write into the tile and the read of the turned pixel: the pixel a thread reads
 * was written by another thread, of another warp, with nothing between the two. A __syncthreads()
 * between them makes every thread wait until the whole tile is written. It cannot go inside the if:
 * in the tiles at the right and bottom edges some threads fall outside the picture and would never
 * reach it. So the if is split in two, and the barrier between them is reached by every thread.
 *   make lab L=ch2_debug_barrier FILE=labs/solutions/ch2_debug_barrier.cu
 */

#define TILE 16

__global__ void turn_tiles(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    int w = min(TILE, width - (int)blockIdx.x * TILE), h = min(TILE, height - (int)blockIdx.y * TILE);
    int inside = x < width && y < height;
    if (inside)
        tile[ty][tx] = in[(long long)y * width + x];
    __syncthreads();  /* reached by every thread of the block: the whole tile is written */
    if (inside)
        out[(long long)y * width + x] = tile[h - 1 - ty][w - 1 - tx];
}

/* The runner calls this with pictures on the GPU. */
void lab_turn_tiles(const float *in, float *out, int width, int height)
{
    dim3 threads(TILE, TILE), blocks((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    turn_tiles<<<blocks, threads>>>(in, out, width, height);
}
