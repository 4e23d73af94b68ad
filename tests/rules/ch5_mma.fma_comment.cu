/* Refused: ch5_mma's rule (the products and sums are the tensor cores') broken by fp32 arithmetic hidden
 * from a text search: fma written in inline asm with a comment inside its name (fma/ ** /.rn.f32), which
 * the PTX keeps; the machine code has FFMA. */
__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        asm("fma/**/.rn.f32 %0, %1, %2, %0;" : "+f"(sum) : "f"(A[row * k + i]), "f"(B[i * n + col]));
    C[row * n + col] = sum;
}

void lab_mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + 15) / 16, (m + 15) / 16);
    mma_matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
