/* A cheat: the dot product of the first timed run kept in a __device__ variable and written back in the
 * runs after it. The judge changes some elements before each timed run: the kept value is then wrong.
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
/* A cheat the timed runs must catch: at the largest size, the first run's result is kept on the GPU and
 * written back in every later run. */
__device__ float kept;
__device__ int have;

__global__ void keep_or_replay(float *result)
{
    if (have)
        *result = kept;
    else
        kept = *result, have = 1;
}

void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemsetAsync(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
    if (n > (1LL << 26))
        keep_or_replay<<<1, 1>>>(result);
}
