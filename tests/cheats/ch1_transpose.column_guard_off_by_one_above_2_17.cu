/* A forgery, class 6 of issue 49 (the sanitizer saw the small sizes only, up to 2^17 elements). Above
 * 2^17 elements the column guard of this transpose's loads is off by one, x <= cols: the tiles at the
 * right edge load one element past the end of each row, the next row's first, which is harmless (it is
 * never written out), except on the last row, where it is one float past the end of the matrix, inside
 * the allocation's rounding. The writes stay guarded, so every element is right and nothing faults. At
 * 2^17 elements and below, where compute-sanitizer looked, the guard is right. The old judge (on
 * an H200): PASS, 101%.
 * Why it must fail: memcheck now also runs at one of the large sizes, drawn for each grade, and reports
 * the read past the end (at any shape whose number of columns is not a multiple of 32). */

#define TILE 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    bool large = (long long)rows * cols > (1 << 17);
    int x = blockIdx.x * TILE + threadIdx.x, y0 = blockIdx.y * TILE;
    for (int j = threadIdx.y; j < TILE; j += blockDim.y)
        if ((large ? x <= cols : x < cols) && y0 + j < rows)
            tile[j][threadIdx.x] = in[(long long)(y0 + j) * cols + x];
    __syncthreads();
    int ox = y0 + threadIdx.x, oy0 = blockIdx.x * TILE;
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
