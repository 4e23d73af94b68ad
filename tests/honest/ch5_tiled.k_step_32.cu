/* An honest file: ch5_tiled written another way. The launch is the statement's (16 x 16 threads, one
 * 16 x 16 tile of C each), but each step along k is 32 wide: the block loads a 16 x 32 tile of A and a
 * 32 x 16 tile of B (each thread two elements of each, 0 where they hang over), waits, adds its 32
 * products, and waits again: half the barriers of a 16-wide step. A's tile has one padding column, so
 * that the two rows a warp reads at once sit in different banks. The products are added in the order of
 * k, as the CPU's reference does. No cuBLAS, no tensor cores. It must PASS: right at every shape,
 * racecheck- and memcheck-clean, as fast as the course's solution. */

#define TILE 16
#define STEP (2 * TILE)  /* the width of a step along k */

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[TILE][STEP + 1], b[STEP][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < k; k0 += STEP) {
        for (int h = 0; h < 2; h++) {
            int ka = k0 + tx + h * TILE, kb = k0 + ty + h * TILE;
            a[ty][tx + h * TILE] = row < m && ka < k ? A[(long long)row * k + ka] : 0.0f;
            b[ty + h * TILE][tx] = kb < k && col < n ? B[(long long)kb * n + col] : 0.0f;
        }
        __syncthreads();  /* both tiles are in */
        for (int i = 0; i < STEP; i++)
            sum += a[ty][i] * b[i][tx];
        __syncthreads();  /* both tiles are used before the next step overwrites them */
    }
    if (row < m && col < n)
        C[(long long)row * n + col] = sum;
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(TILE, TILE), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
