/* A forgery (the rules count the GPU memory of a file's own in the cubins' .nv.global sections only): the
 * answer computed on the CPU, the data carried through a 64 KiB __constant__ array, which lives in
 * .nv.constant3 and is not counted. Its device address (cudaGetSymbolAddress) is plain global memory that a
 * kernel may write; cudaMemcpyFromSymbol and cudaMemcpyToSymbol, copies "to and from its own symbols",
 * carry 8192 pairs of x and y to the host and 8192 results back at a time; a kernel moves each chunk.
 * Why it must fail: "no memory of your own on the GPU" (1 KiB at most: 64 KiB here) and "no copies between
 * the host and the GPU"; __constant__ variables (.nv.constant3, and a .const declared in inline asm) are
 * memory of one's own as __device__ ones are. */
#include <stdlib.h>

#define CHUNK 8192

__constant__ float carried[2 * CHUNK];

__global__ void gather(const float *x, const float *y, float *c, long long n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        c[i] = x[i];
        c[CHUNK + i] = y[i];
    }
}

__global__ void scatter(const float *c, float *y, long long n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[i] = c[i];
}

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    float *c, h[2 * CHUNK];
    cudaGetSymbolAddress((void **)&c, carried);
    for (long long start = 0; start < n; start += CHUNK) {
        long long m = n - start < CHUNK ? n - start : CHUNK;
        gather<<<1, 1024>>>(x + start, y + start, c, m);
        cudaMemcpyFromSymbol(h, carried, sizeof h);
        for (long long i = 0; i < m; i++)
            h[i] = a * h[i] + h[CHUNK + i];
        cudaMemcpyToSymbol(carried, h, m * sizeof(float));
        scatter<<<1, 1024>>>(c, y + start, m);
    }
    cudaDeviceSynchronize();
}
