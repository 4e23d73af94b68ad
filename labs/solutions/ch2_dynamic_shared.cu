/* Lab ch2_dynamic_shared, a solution: a tile in dynamic shared memory, sized at launch, past 48 KiB.
 *
 * The kernel declares its tile without a size (extern __shared__) and the launch gives it tile *
 * sizeof(float) bytes, its third parameter. Before the launch, cudaFuncSetAttribute allows the kernel
 * that many bytes: past 48 KiB the launch is refused without it, and below it the call changes nothing,
 * so it is made for every tile. Each thread copies every blockDim.x-th element of its block's tile into
 * shared memory; after the barrier, which every thread reaches, each writes back the elements at the same
 * places, each taken from shift places further on in the tile, wrapping around at the tile's own length.
 *   make lab L=ch2_dynamic_shared FILE=labs/solutions/ch2_dynamic_shared.cu
 */

#define THREADS 256  /* threads in a block */

__global__ void rotate_tiles(float *data, int n, int tile, int shift)
{
    extern __shared__ float s[];        /* tile floats: the launch's third parameter is their bytes */
    int first = blockIdx.x * tile;      /* this block's tile starts here */
    int length = min(tile, n - first);  /* tile, but for the last one */
    int by = shift % length;            /* the last tile, shorter, turns by what is left of shift */
    for (int i = threadIdx.x; i < length; i += blockDim.x)
        s[i] = data[first + i];
    __syncthreads();  /* the whole tile is in s before any element of it is written back */
    for (int i = threadIdx.x; i < length; i += blockDim.x)
        data[first + i] = s[i + by < length ? i + by : i + by - length];
}

/* The runner calls this with data on the GPU: a block of THREADS threads for each tile. */
void lab_rotate_tiles(float *data, int n, int tile, int shift)
{
    size_t bytes = (size_t)tile * sizeof(float);  /* the tile's bytes: the launch counts bytes, not floats */
    cudaFuncSetAttribute(rotate_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);  /* the opt-in */
    rotate_tiles<<<(n + tile - 1) / tile, THREADS, bytes>>>(data, n, tile, shift);
}
