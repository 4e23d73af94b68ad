/* A cheat: only column 0 of C computed, where the old harness sampled the 4096^3 product (every
 * sampled element lay in column 0). The judge now checks every element below a billion multiply-adds
 * and a sample drawn over rows and columns above. */
#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += A[(long long)row * k + i] * B[(long long)i * n];
    C[(long long)row * n] = sum;
}

void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    matmul<<<(m + 255) / 256, 256>>>(A, B, C, m, n, k);
}
