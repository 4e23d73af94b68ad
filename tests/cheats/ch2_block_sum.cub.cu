/* A cheat: CUB's block reduction, which the statement forbids. */
#include <cub/block/block_reduce.cuh>

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    typedef cub::BlockReduce<float, THREADS> Reduce;
    __shared__ typename Reduce::TempStorage scratch;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    float total = Reduce(scratch).Sum(sum);
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = total;
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
