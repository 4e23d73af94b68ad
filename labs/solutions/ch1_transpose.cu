/* Lab ch1_transpose, a solution: a tile through shared memory, so that reads and writes are both along
 * rows (coalesced), and a padded tile, so that reading it down a column hits 32 different banks.
 *   make lab L=ch1_transpose FILE=labs/solutions/ch1_transpose.cu
 */

#define TILE 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];  /* +1: column k of the tile spans 32 banks, not one */
    int x = blockIdx.x * TILE + threadIdx.x;  /* a column of in */
    int y0 = blockIdx.y * TILE;               /* the tile's first row of in */
    for (int j = threadIdx.y; j < TILE; j += blockDim.y)
        if (x < cols && y0 + j < rows)
            tile[j][threadIdx.x] = in[(long long)(y0 + j) * cols + x];
    __syncthreads();  /* the whole tile is read before any thread writes from it */
    int ox = y0 + threadIdx.x;                 /* a column of out: a row of in */
    int oy0 = blockIdx.x * TILE;               /* the tile's first row of out: a column of in */
    for (int j = threadIdx.y; j < TILE; j += blockDim.y)
        if (ox < rows && oy0 + j < cols)
            out[(long long)(oy0 + j) * rows + ox] = tile[threadIdx.x][j];
}

/* The runner calls this with matrices on the GPU. */
void lab_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 threads(TILE, 8);
    dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<blocks, threads>>>(in, out, rows, cols);
}
