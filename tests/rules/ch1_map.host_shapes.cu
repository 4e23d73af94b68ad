/* Accepted: what an honest file may do on the host where the statement does not forbid it, each refused
 * by the old rules: a std::vector (new and delete), scratch memory of its own (cudaMalloc, cudaFree), a
 * stream and events of its own, a device-to-device copy to a __device__ variable of its own
 * (cudaMemcpyToSymbol), and a printf in the kernel (a few bytes of strings, no malloc). And a header of
 * the toolkit's libcu++ (cuda/std), which nvcc -MD names by its real path, not by nvcc's. */
#include <cstdio>
#include <cuda/std/cstdint>
#include <vector>

__device__ float scale;

__global__ void saxpy(const float *x, float *y, long long n)
{
    cuda::std::int64_t stride = (cuda::std::int64_t)blockDim.x * gridDim.x;
    for (cuda::std::int64_t i = blockIdx.x * (cuda::std::int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = scale * x[i] + y[i];
    if (n < 0)
        printf("n = %lld\n", n);
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    std::vector<float> host(1, a);
    float *a_on_gpu;
    cudaMalloc(&a_on_gpu, sizeof(float));
    cudaMemset(a_on_gpu, 0, sizeof(float));
    cudaMemcpyToSymbol(scale, a_on_gpu, sizeof(float), 0, cudaMemcpyDeviceToDevice);
    cudaStream_t stream;
    cudaEvent_t start, end;
    cudaStreamCreate(&stream);
    cudaEventCreate(&start);
    cudaEventCreate(&end);
    cudaEventRecord(start, stream);
    saxpy<<<32 * sms, 256, 0, stream>>>(x, y, n);
    cudaEventRecord(end, stream);
    cudaEventSynchronize(end);
    cudaEventDestroy(start);
    cudaEventDestroy(end);
    cudaStreamDestroy(stream);
    cudaFree(a_on_gpu);
    (void)host;
}
