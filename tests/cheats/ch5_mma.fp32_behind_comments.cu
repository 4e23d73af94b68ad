/* A forgery, class 3 of issue 49 (the PTX rules were regular expressions over PTX text). ch5_mma's
 * lesson is the tensor cores: no floating-point arithmetic in the kernel, the products and sums are
 * mma_tf32's. This file never calls it: it computes the product in fp32 on the ordinary cores, 16
 * multiply-adds a thread per step from a 64 x 64 tile in shared memory, each one an inline asm
 * `fma/<empty comment>.rn.f32`, which the rule's pattern `fma(\.r[nzmp])?...\.f32` never matches; the
 * compiler is given no float expression to make an fma of its own. fp32 is more exact than TF32, so the
 * check passes, and a register tile runs faster than the statement's one-warp-a-tile kernel: the old
 * judge (on an H200): PASS, 157% of the solution.
 * Why it must fail: the rules read the machine code, where the instructions are FFMA whatever their PTX
 * spelling: refused without a GPU. */

#define TILE 64  /* C's tile of a block: 16 x 16 threads, a 4 x 4 tile each */
#define STEP 16  /* along k */

__device__ float multiply_add(float a, float b, float c)
{
    float d;
    asm("fma/**/.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
    return d;
}

__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a_tile[STEP][TILE], b_tile[STEP][TILE];  /* a_tile: A's tile, k first */
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            acc[r][c] = 0.0f;
    for (int k0 = 0; k0 < k; k0 += STEP) {
        for (int j = 0; j < 4; j++) {
            int ar = row0 + t / 16 + 16 * j, ak = k0 + t % 16;
            a_tile[t % 16][t / 16 + 16 * j] = ar < m && ak < k ? A[(long long)ar * k + ak] : 0.0f;
            int bk = k0 + t / 64 + 4 * j, bc = col0 + t % 64;
            b_tile[t / 64 + 4 * j][t % 64] = bk < k && bc < n ? B[(long long)bk * n + bc] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < STEP; i++) {
            float a[4], b[4];
            for (int r = 0; r < 4; r++)
                a[r] = a_tile[i][ty + 16 * r];
            for (int c = 0; c < 4; c++)
                b[c] = b_tile[i][tx + 16 * c];
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    acc[r][c] = multiply_add(a[r], b[c], acc[r][c]);
        }
        __syncthreads();
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int row = row0 + ty + 16 * r, col = col0 + tx + 16 * c;
            if (row < m && col < n)
                C[(long long)row * n + col] = acc[r][c];
        }
}

/* The runner calls this with matrices on the GPU (the launch is this file's own). */
void lab_mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    mma_matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
