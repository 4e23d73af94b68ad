/* Refused: ch2_block_sum's warp shuffles hidden from a text search: shfl written in inline asm with a
 * comment inside its name (shfl/ ** /.sync), which the PTX keeps; the machine code has SHFL. */
#define THREADS 256

__device__ float down(float v, int by)
{
    float r;
    asm volatile("shfl/**/.sync.down.b32 %0, %1, %2, 31, -1;" : "=f"(r) : "f"(v), "r"(by));
    return r;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float warps[THREADS / 32];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    for (int by = 16; by > 0; by /= 2)
        sum += down(sum, by);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < THREADS / 32; w++)
            sum += warps[w];
        block_sums[blockIdx.x] = sum;
    }
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    block_sum<<<32 * sms, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, 32 * sms, result);
}
