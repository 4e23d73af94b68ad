/* Accepted: an honest ch2_block_sum (a tree in shared memory) graded from a path with red, atom, spaces,
 * quotes and unicode in it (tests/rules.t compiles it in such a folder, its #line naming it): the PTX's
 * .file line has "red." in it, the machine code has no atomic. */
#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float s[THREADS];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = s[0];
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    block_sum<<<32 * sms, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, 32 * sms, result);
}
