/* fill.cu: the judge's inputs made on the GPU, and its own sum of them (lab.h). Each element comes from
 * random.h's functions of (seed, stream, index), so that the CPU reference remakes any element it needs
 * with the same call: a timed run's inputs are drawn afresh, on the GPU, before every run, and only the
 * sample's references are computed on the host. Compiled once, like sample.cu. */
#include <cuda_runtime_api.h>

#include "../../common/check.h"
#include "random.h"

static int grid_of(long long n)
{
    long long blocks = (n + 255) / 256;
    return (int)(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

__global__ void fill_floats(float *x, long long n, unsigned long long seed, unsigned stream, float low, float high)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = lab_value(seed, stream, i, low, high);
}

__global__ void fill_uints(unsigned *x, long long n, unsigned long long seed, unsigned stream, unsigned bound)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = bound ? lab_below(seed, stream, i, bound) : (unsigned)lab_bits(seed, stream, i);
}

__global__ void fill_any_floats(float *x, long long n, unsigned long long seed, unsigned stream)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = lab_any_float(seed, stream, i);
}

__global__ void fill_bytes(unsigned char *x, long long n, unsigned long long seed, unsigned stream)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = (unsigned char)lab_bits(seed, stream, i);
}

/* The judge's sum in double: each thread's terms, then a block's tree, then one atomicAdd a block. */
__global__ void sum_doubles(const float *x, long long n, double *sum)
{
    __shared__ double part[256];
    double s = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        s += x[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, part[0]);
}

extern "C" void lab_fill_floats(float *dev, long long n, unsigned long long seed, unsigned stream, float low,
                                float high)
{
    fill_floats<<<grid_of(n), 256>>>(dev, n, seed, stream, low, high);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

extern "C" void lab_fill_uints(unsigned *dev, long long n, unsigned long long seed, unsigned stream, unsigned bound)
{
    fill_uints<<<grid_of(n), 256>>>(dev, n, seed, stream, bound);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

extern "C" void lab_fill_any_floats(float *dev, long long n, unsigned long long seed, unsigned stream)
{
    fill_any_floats<<<grid_of(n), 256>>>(dev, n, seed, stream);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

extern "C" void lab_fill_bytes(unsigned char *dev, long long n, unsigned long long seed, unsigned stream)
{
    fill_bytes<<<grid_of(n), 256>>>(dev, n, seed, stream);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

extern "C" double lab_sum_on_gpu(const float *dev, long long n)
{
    double *sum, host = 0;
    CUDA_CHECK(cudaMalloc(&sum, sizeof host));
    CUDA_CHECK(cudaMemset(sum, 0, sizeof host));
    sum_doubles<<<grid_of(n), 256>>>(dev, n, sum);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(sum));
    return host;
}
