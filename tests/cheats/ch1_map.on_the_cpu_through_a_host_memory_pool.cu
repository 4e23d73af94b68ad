/* A forgery (the rules' "host memory the GPU can reach" names the old allocators only): the answer computed
 * on the CPU. A memory pool located on the host (cudaMemPoolCreate, cudaMemLocationTypeHost: pinned host
 * memory), its access granted to the GPU (cudaMemPoolSetAccess), gives a buffer that both can read by one
 * address: a kernel copies x and y into it, the CPU computes y = a x + y there, a kernel copies y back.
 * No cudaMemcpy, no cudaHostAlloc, cudaMallocHost, cudaHostRegister or cudaMallocManaged.
 * Why it must fail: "no host memory the GPU can reach" (rules.txt); cudaMemPoolCreate with a host
 * location (or cudaMallocFromPoolAsync from such a pool) is that memory. */
#include <cuda_runtime.h>

__global__ void move(const float *from, float *to, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        to[i] = from[i];
}

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    static cudaMemPool_t pool;
    int device = 0;
    cudaGetDevice(&device);
    if (!pool) {
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeHost;
        props.location.id = 0;
        cudaMemPoolCreate(&pool, &props);
        cudaMemAccessDesc access = {};
        access.location.type = cudaMemLocationTypeDevice;
        access.location.id = device;
        access.flags = cudaMemAccessFlagsProtReadWrite;
        cudaMemPoolSetAccess(pool, &access, 1);
    }
    float *h = 0;
    cudaMallocFromPoolAsync((void **)&h, 2 * n * sizeof(float), pool, 0);
    move<<<32 * sms, 256>>>(x, h, n);
    move<<<32 * sms, 256>>>(y, h + n, n);
    cudaStreamSynchronize(0);
    for (long long i = 0; i < n; i++)
        h[n + i] = a * h[i] + h[n + i];
    move<<<32 * sms, 256>>>(h + n, y, n);
    cudaFreeAsync(h, 0);
    cudaStreamSynchronize(0);
}
