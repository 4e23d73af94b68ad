/* Lab ch5_mma, a solution: each warp walks along k in steps of 8, loading its fragments of A and B from
 * global memory (0 outside the matrices), rounded to TF32, and adds one mma.sync a step; then it stores
 * its four sums where they belong, inside C only.
 *   make lab L=ch5_mma FILE=labs/solutions/ch5_mma.cu
 */

#define WARPS 4

__device__ unsigned to_tf32(float x)
{
    unsigned t = 0;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x));
#endif
    return t;
}

__device__ void mma_tf32(float (&sum)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(sum[0]), "+f"(sum[1]), "+f"(sum[2]), "+f"(sum[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

/* M[row][col], or 0 outside the rows x cols matrix M, rounded to TF32. */
__device__ unsigned fragment(const float *M, int rows, int cols, int row, int col)
{
    return to_tf32(row < rows && col < cols ? M[(long long)row * cols + col] : 0.0f);
}

__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
#if __CUDA_ARCH__ >= 800
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, g = lane / 4, q = lane % 4;
    int r = 16 * blockIdx.y, c = 8 * (WARPS * blockIdx.x + warp);  /* the warp's tile of C */
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < k; k0 += 8) {  /* the last step may hang over k: its loads give 0 */
        unsigned a[4], b[2];
        a[0] = fragment(A, m, k, r + g, k0 + q);
        a[1] = fragment(A, m, k, r + g + 8, k0 + q);
        a[2] = fragment(A, m, k, r + g, k0 + q + 4);
        a[3] = fragment(A, m, k, r + g + 8, k0 + q + 4);
        b[0] = fragment(B, k, n, k0 + q, c + g);
        b[1] = fragment(B, k, n, k0 + q + 4, c + g);
        mma_tf32(sum, a, b);
    }
    for (int h = 0; h < 4; h++) {  /* sum[h]: row r + g (+ 8 for h >= 2), column c + 2q (+ 1 for odd h) */
        int row = r + g + 8 * (h / 2), col = c + 2 * q + h % 2;
        if (row < m && col < n)
            C[(long long)row * n + col] = sum[h];
    }
#endif
}

/* The runner calls this with matrices on the GPU. */
void lab_mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 blocks((n + 8 * WARPS - 1) / (8 * WARPS), (m + 15) / 16);
    mma_matmul<<<blocks, 32 * WARPS>>>(A, B, C, m, n, k);
}
