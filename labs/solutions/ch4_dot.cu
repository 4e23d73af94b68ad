/* Lab ch4_dot, a solution: products summed per thread, then a tree per block, then one atomicAdd per
 * block into the result.
 *   make lab L=ch4_dot FILE=labs/solutions/ch4_dot.cu
 */

#define THREADS 256

__global__ void dot(const float *x, const float *y, long long n, float *result)
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
        __syncthreads();  /* this step's sums are written before the next step reads them */
    }
    if (tid == 0)
        atomicAdd(result, s[0]);  /* blocks finish in any order: the add must be atomic */
}

/* The runner calls this with arrays on the GPU. */
void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemsetAsync(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
}
