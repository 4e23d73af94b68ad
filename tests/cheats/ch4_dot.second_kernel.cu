/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch4_dot's Rules line says no
 * second kernel: the blocks' sums are to meet in *result by atomicAdd. This file writes each block's sum
 * to an array of its own and adds them in a second kernel, one block: right, and the lesson (one atomic
 * per block) left out; no judge counted its kernels (found by an independent read of the statements).
 * Why it must fail: the judge counts the kernels each call launches (one, here two). */

#define THREADS 256

__global__ void partial(const float *x, const float *y, long long n, float *sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i] * y[i];
    s[tid] = sum;
    __syncthreads();
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        sums[blockIdx.x] = s[0];
}

__global__ void add_up(const float *sums, int count, float *result)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (int i = tid; i < count; i += THREADS)
        sum += sums[i];
    s[tid] = sum;
    __syncthreads();
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        *result = s[0];
}

void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    static float *sums;
    if (!sums)
        cudaMalloc(&sums, 32 * sms * sizeof(float));
    partial<<<32 * sms, THREADS>>>(x, y, n, sums);
    add_up<<<1, THREADS>>>(sums, 32 * sms, result);
}
