/* Refused: ch4_dot's rule, no mutex: the blocks add their sums to *result under a lock taken with
 * atomicCAS and given back with atomicExch (ATOMG.E.CAS, ATOMG.E.EXCH), where one atomicAdd does. */
#define THREADS 256

__device__ int lock;

__global__ void dot(const float *x, const float *y, long long n, float *result)
{
    __shared__ float sums[THREADS];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i] * y[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        while (atomicCAS(&lock, 0, 1) != 0)
            ;
        *(volatile float *)result += sums[0];
        __threadfence();
        atomicExch(&lock, 0);
    }
}
