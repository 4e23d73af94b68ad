/* An honest file: ch5_register_tile written another way, to come near cuBLAS under the fixed launch (16 x 16
 * threads, a 64 x 64 tile of C a block; which elements a thread computes, and how, is only advice). Why
 * the 4 x 4 tile a thread cannot: for each k a thread reads 8 floats from shared memory for 16 multiply-
 * adds, and shared memory returns 32 floats a clock to an SM (128 bytes; the solution, at 30% of the fp32
 * peak, kept it 73% busy on an H200), whose 128 lanes do 128 multiply-adds a clock: the reads bind at
 * half the peak, two thirds of cuBLAS (76% of the peak), however wide they are.
 * So the block splits k four ways: its 8 warps are 4 groups of 2, group g takes k = 4g .. 4g + 3 of each
 * step of 16, and each thread keeps an 8 x 8 tile of partial sums of C, 64 registers: 16 floats read for
 * 64 multiply-adds, as many clocks of shared memory as of arithmetic. At the end the groups add their
 * sums through shared memory (three rounds into group 0, which writes C): still fp32, in another order
 * (four shorter runs along k), within the judge's bound. Around that, sgemm_ladder's rungs 4 to 6:
 *   - A's tile is stored transposed (a[k][m]) so that a thread's 8 values of A for one k are two float4
 *     reads, as its 8 of B are; its rows are r0 .. r0 + 3 and r0 + 16 .. + 19, its columns c0 .. c0 + 3
 *     and c0 + 32 .. + 35, so a warp's float4 reads lie in distinct banks (64 and 128 neighbouring bytes).
 *     Lane bit 0 picks the column and bit 1 the row: lanes n and n ^ 1 read the same A, n and n ^ 2 the
 *     same B, the pairs that NVIDIA's forum says let a 128-bit read return in half the clocks (Volta,
 *     Turing; untested here on Hopper, and harmless where it does not).
 *   - two copies of each tile, one barrier a step: the next step's loads from global memory are issued
 *     after the first 64 of the step's 256 multiply-adds (before them, ptxas spills: 128 registers at
 *     most for 2 blocks an SM) and stored into the other copy at the top of the next step.
 *   - plain 16-byte loads in blocks inside C with aligned rows (k and n multiples of 4, as at the timed
 *     4096^3) at every whole step; elsewhere load4, one float at a time where needed, zeros outside.
 * The expected speed (not measured: written without a GPU): shared memory is then the busiest unit, about
 * 84 of its clocks for 64 of arithmetic a warp and a step with the tiles' stores and loads (a ceiling of
 * 76% of the peak, cuBLAS's own), and 81% of the instructions issued are multiply-adds: 60 to 70% of the
 * peak, 80 to 90% of cuBLAS, where the course's solution has 30% and 39%. No cuBLAS, no tensor cores.
 *   make lab L=ch5_register_tile FILE=tests/honest/ch5_register_tile.split_k_8x8.cu
 */

#define BM 64  /* rows of C a block computes */
#define BN 64  /* columns */
#define BK 16  /* the step along k: 4 for each of the 4 groups */
#define PAD 4  /* A's transposed rows are BM + 4 floats: a thread's 4 stores of k land 2 to a bank, not 4 */

/* Four floats of row r of a rows x cols matrix from column c, zeros outside it (the tails in m, n, k);
 * one 16-byte load when they are inside and the row starts 16-byte aligned (cols a multiple of 4). */
__device__ float4 load4(const float *M, int rows, int cols, int r, int c)
{
    if (r < rows && cols % 4 == 0 && c + 3 < cols)
        return *(const float4 *)&M[r * cols + c];  /* 32-bit index: the contract's, every matrix < 2^31 */
    float v[4];
    for (int e = 0; e < 4; e++)
        v[e] = r < rows && c + e < cols ? M[r * cols + c + e] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

__global__ void __launch_bounds__(256, 2) matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* The tiles of two steps (4,224 floats), then, after the loop, one group's partial sums: BM rows of
     * BN + PAD (4,352), the padding as in A's tile. */
    __shared__ __align__(16) float smem[BM * (BN + PAD)];
    static_assert(2 * BK * (BM + PAD) + 2 * BK * BN <= BM * (BN + PAD), "the tiles fit where the sums go");
    float(*a)[BK][BM + PAD] = (float(*)[BK][BM + PAD])smem;  /* a[s][k][m]: A's tile, transposed */
    float(*b)[BK][BN] = (float(*)[BK][BN])(smem + 2 * BK * (BM + PAD));
    int id = threadIdx.y * 16 + threadIdx.x, warp = id / 32, lane = id % 32;
    int g = warp / 2;                                           /* the group: k = 4g .. 4g + 3 of a step */
    int r0 = warp % 2 * 32 + (lane >> 1 & 3) * 4;               /* lane bits 1, 2: the rows */
    int c0 = ((lane & 1) | (lane >> 3) << 1) * 4;              /* lane bits 0, 3, 4: the columns */
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int a_row = id / 4, a_k = id % 4 * 4, b_row = id / 16, b_col = id % 16 * 4;  /* one float4 of each */
    /* A block whose tile lies inside C, with rows 16-byte aligned, takes plain 16-byte loads at every
     * whole step of k (the same test for all its threads: no divergence); the rest goes through load4. */
    bool whole = k % 4 == 0 && n % 4 == 0 && row0 + BM <= m && col0 + BN <= n;
    float acc[8][8] = {{0.0f}};
    float4 next_a = load4(A, m, k, row0 + a_row, a_k), next_b = load4(B, k, n, b_row, col0 + b_col);
    for (int t = 0, s = 0;; t += BK, s ^= 1) {
        a[s][a_k][a_row] = next_a.x;  /* into copy s, which no warp reads: the last barrier saw to it */
        a[s][a_k + 1][a_row] = next_a.y;
        a[s][a_k + 2][a_row] = next_a.z;
        a[s][a_k + 3][a_row] = next_a.w;
        *(float4 *)&b[s][b_row][b_col] = next_b;
        __syncthreads();  /* copy s is whole; and every warp is done with copy s ^ 1, the next one written */
        bool more = t + BK < k;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            if (j == 1 && more) {  /* the next step's loads, after the first 64 multiply-adds (issued */
                int u = t + BK;    /* before them, they would cost registers: 128 at most for 2 blocks) */
                if (whole && u + BK <= k) {
                    next_a = *(const float4 *)&A[(row0 + a_row) * k + u + a_k];
                    next_b = *(const float4 *)&B[(u + b_row) * n + col0 + b_col];
                } else {
                    next_a = load4(A, m, k, row0 + a_row, u + a_k);
                    next_b = load4(B, k, n, u + b_row, col0 + b_col);
                }
            }
            int kk = 4 * g + j;
            float4 a0 = *(const float4 *)&a[s][kk][r0], a1 = *(const float4 *)&a[s][kk][r0 + 16];
            float4 b0 = *(const float4 *)&b[s][kk][c0], b1 = *(const float4 *)&b[s][kk][c0 + 32];
            float x[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float y[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; r++)
#pragma unroll
                for (int c = 0; c < 8; c++)
                    acc[r][c] += x[r] * y[c];
        }
        if (!more)
            break;  /* the stores above wait for the loads: the multiply-adds of this step hid them */
    }

    /* Groups 1, 2, 3 in turn hand their partial sums to group 0 through shared memory; the same thread
     * of each group holds the same elements, so a thread of group 0 reads back exactly its own. */
    float(*part)[BN + PAD] = (float(*)[BN + PAD])smem;
    for (int h = 1; h < 4; h++) {
        __syncthreads();  /* the last reads of the tiles, or of the last round, are done */
        if (g == h)
            for (int r = 0; r < 8; r++) {
                int row = r0 + r % 4 + r / 4 * 16;
                *(float4 *)&part[row][c0] = make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
                *(float4 *)&part[row][c0 + 32] = make_float4(acc[r][4], acc[r][5], acc[r][6], acc[r][7]);
            }
        __syncthreads();  /* group h's sums are in */
        if (g == 0)
            for (int r = 0; r < 8; r++) {
                int row = r0 + r % 4 + r / 4 * 16;
                for (int c = 0; c < 8; c++)
                    acc[r][c] += part[row][c0 + c % 4 + c / 4 * 32];
            }
    }
    if (g != 0)
        return;
    for (int r = 0; r < 8; r++) {
        int row = row0 + r0 + r % 4 + r / 4 * 16;
        for (int h = 0; h < 2 && row < m; h++) {
            int col = col0 + c0 + 32 * h;
            const float *v = &acc[r][4 * h];
            float *p = &C[row * n + col];  /* row < m: inside C's rows */
            if (n % 4 == 0 && col + 3 < n)
                *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
            else
                for (int e = 0; e < 4 && col + e < n; e++)
                    p[e] = v[e];
        }
    }
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
