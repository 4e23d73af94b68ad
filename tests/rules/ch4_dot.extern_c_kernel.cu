/* Accepted: an honest ch4_dot whose kernel has C linkage (extern "C", as for a kernel looked up by name):
 * its name is no library's, so it takes no library function's place. Its one atomicAdd a block is the
 * lab's (RED, no CAS), and its shuffles are allowed there. */
#define THREADS 256

extern "C" __global__ void dot(const float *x, const float *y, long long n, float *result)
{
    __shared__ float warps[THREADS / 32];
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i] * y[i];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < THREADS / 32; w++)
            sum += warps[w];
        atomicAdd(result, sum);
    }
}

void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemset(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
}
