/* A forgery, class 3 of issue 49 (the PTX rules were regular expressions over PTX text). ch5_tiled
 * forbids tensor cores: the old rule refused `mma.` in the PTX. This file's second kernel multiplies on
 * them in TF32 with inline asm spelt `mma/<empty comment>.sync.aligned.m16n8k8...`, which ptxas reads as
 * mma.sync and the pattern never matches. It runs only at the large product (k of 2048 or more), where
 * a tolerance of k fp32 roundings over positive inputs admits TF32's rounding; the small shapes get the
 * statement's fp32 kernel. Each warp computes a 16 x 32 tile of C, four m16n8k8 products a step of 8,
 * fragments read from global memory as ch5_mma's statement lays them out. The old judge (on an H200):
 * PASS, 353% of the solution.
 * Why it must fail: the rules read the machine code, where the instruction is HMMA whatever its PTX
 * spelling (refused without a GPU); and with inputs over their whole range and an fp32 bound, TF32 is
 * a wrong result. */

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[TILE][TILE], b[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        a[ty][tx] = row < m && ka < k ? A[(long long)row * k + ka] : 0.0f;
        b[ty][tx] = kb < k && col < n ? B[(long long)kb * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += a[ty][i] * b[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(long long)row * n + col] = sum;
}

__device__ unsigned tf32_at(const float *M, int rows, int cols, int row, int col)
{
    float v = row < rows && col < cols ? M[(long long)row * cols + col] : 0.0f;
    unsigned t = __float_as_uint(v);
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(v));
#endif
    return t;
}

/* A warp: C's 16 x 32 tile at (16 (4 blockIdx.y + warp), 32 blockIdx.x), four products a step of 8. */
__global__ void tensor_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, g = lane / 4, q = lane % 4;
    int r = 16 * (4 * blockIdx.y + warp), c0 = 32 * blockIdx.x;
    float sum[4][4] = {};
    for (int k0 = 0; k0 < k; k0 += 8) {
        unsigned a0 = tf32_at(A, m, k, r + g, k0 + q), a1 = tf32_at(A, m, k, r + g + 8, k0 + q);
        unsigned a2 = tf32_at(A, m, k, r + g, k0 + q + 4), a3 = tf32_at(A, m, k, r + g + 8, k0 + q + 4);
        for (int t = 0; t < 4; t++) {
            int c = c0 + 8 * t + g;
            unsigned b0 = tf32_at(B, k, n, k0 + q, c), b1 = tf32_at(B, k, n, k0 + q + 4, c);
#if __CUDA_ARCH__ >= 800
            asm volatile("mma/**/.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                         "{%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(sum[t][0]), "+f"(sum[t][1]), "+f"(sum[t][2]), "+f"(sum[t][3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#endif
        }
    }
    for (int t = 0; t < 4; t++)
        for (int h = 0; h < 4; h++) {
            int row = r + g + 8 * (h / 2), col = c0 + 8 * t + 2 * q + h % 2;
            if (row < m && col < n)
                C[(long long)row * n + col] = sum[t][h];
        }
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    if (k >= 2048) {
        tensor_matmul<<<dim3((n + 31) / 32, (m + 63) / 64), 128>>>(A, B, C, m, n, k);
        return;
    }
    dim3 threads(TILE, TILE), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
