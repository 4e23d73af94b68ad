/* An honest file: ch1_transpose written another way. The 32 x 32 tile has no padding column; instead
 * element (r, c) of the tile is stored at column c ^ r of row r (an XOR swizzle). The load, along a row
 * of in, writes row r at 32 different columns; the store reads column c of the tile down its rows, at
 * columns c ^ r, again 32 different banks: no bank conflicts either way, with 32 x 32 floats instead of
 * 32 x 33. The launch is the statement's (blocks of 32 x 8, one per tile), both edges guarded. It must
 * PASS: right at every shape, racecheck- and memcheck-clean, as fast as the course's solution. */

#define TILE 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x;
    int col = blockIdx.x * TILE + tx;  /* a column of in */
    int row0 = blockIdx.y * TILE;      /* the tile's first row of in */
    for (int r = threadIdx.y; r < TILE; r += blockDim.y)
        if (col < cols && row0 + r < rows)
            tile[r][tx ^ r] = in[(long long)(row0 + r) * cols + col];
    __syncthreads();  /* the whole tile is in before anyone reads a column of it */
    int out_col = row0 + tx;           /* a column of out is a row of in */
    int out_row0 = blockIdx.x * TILE;  /* the tile's first row of out is its first column of in */
    for (int r = threadIdx.y; r < TILE; r += blockDim.y)
        if (out_col < rows && out_row0 + r < cols)
            out[(long long)(out_row0 + r) * rows + out_col] = tile[tx][r ^ tx];  /* element (tx, r) */
}

/* The runner calls this with matrices on the GPU. */
void lab_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 threads(TILE, 8);
    dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<blocks, threads>>>(in, out, rows, cols);
}
