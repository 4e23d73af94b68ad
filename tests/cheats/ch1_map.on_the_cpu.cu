/* A cheat: the answer computed on the CPU, with copies to and from the GPU around it. */
#include <stdlib.h>

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    cudaMemcpy(hx, x, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (long long i = 0; i < n; i++)
        hy[i] = a * hx[i] + hy[i];
    cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
    free(hx), free(hy);
}
