/* A cheat: every thread adds its sum to the result with atomicAdd, which the statement forbids. */
#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *out)
{
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    atomicAdd(out, sum);
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    cudaMemset(result, 0, sizeof(float));
    block_sum<<<32 * sms, THREADS>>>(x, n, result);
}
