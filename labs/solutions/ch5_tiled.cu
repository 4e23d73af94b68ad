/* Lab ch5_tiled, a solution: the page's tiled kernel with guards, so that any m, n and k work. Each
 * element of A and B is read from global memory n / TILE and m / TILE times instead of n and m times.
 *   make lab L=ch5_tiled FILE=labs/solutions/ch5_tiled.cu
 */

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[TILE][TILE], b[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ka = t * TILE + tx, kb = t * TILE + ty;  /* the column of A and the row of B this thread loads */
        a[ty][tx] = row < m && ka < k ? A[(long long)row * k + ka] : 0.0f;
        b[ty][tx] = kb < k && col < n ? B[(long long)kb * n + col] : 0.0f;
        __syncthreads();  /* both tiles loaded */
        for (int i = 0; i < TILE; i++)
            sum += a[ty][i] * b[i][tx];
        __syncthreads();  /* both tiles used before the next are loaded */
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
