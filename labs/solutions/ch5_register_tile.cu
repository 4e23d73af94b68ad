/* Lab ch5_register_tile, a solution: 16 accumulators per thread. Thread (tx, ty) owns rows ty + 16 r and
 * columns tx + 16 c, so that the 16 threads of a half-warp read 16 neighbouring floats of B's tile (no
 * bank conflict) and write 16 neighbours of C (coalesced).
 *   make lab L=ch5_register_tile FILE=labs/solutions/ch5_register_tile.cu
 */

#define BM 64  /* rows of C a block computes */
#define BN 64  /* columns */
#define BK 16  /* the step along k */

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[BM][BK + 1], b[BK][BN];  /* +1: a column of a spans all the banks */
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * 16 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {{0.0f}};
    for (int t = 0; t < k; t += BK) {
        for (int e = id; e < BM * BK; e += 256) {  /* A's tile: consecutive threads along a row of A */
            int r = e / BK, c = e % BK;
            a[r][c] = row0 + r < m && t + c < k ? A[(long long)(row0 + r) * k + t + c] : 0.0f;
        }
        for (int e = id; e < BK * BN; e += 256) {  /* B's tile: along a row of B */
            int r = e / BN, c = e % BN;
            b[r][c] = t + r < k && col0 + c < n ? B[(long long)(t + r) * n + col0 + c] : 0.0f;
        }
        __syncthreads();  /* both tiles loaded */
        for (int i = 0; i < BK; i++) {
            float a_reg[4], b_reg[4];
            for (int r = 0; r < 4; r++)
                a_reg[r] = a[ty + 16 * r][i];
            for (int c = 0; c < 4; c++)
                b_reg[c] = b[i][tx + 16 * c];
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    acc[r][c] += a_reg[r] * b_reg[c];
        }
        __syncthreads();  /* both tiles used before the next are loaded */
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int row = row0 + ty + 16 * r, col = col0 + tx + 16 * c;
            if (row < m && col < n)
                C[(long long)row * n + col] = acc[r][c];
        }
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
