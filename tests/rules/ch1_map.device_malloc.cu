/* Refused: memory of its own on the GPU, from malloc in a kernel (no section shows it: the device's heap
 * is the runtime's; the cubin names malloc among the functions its code calls). A printf beside it is
 * no memory of its own and is not what the refusal names. */
#include <cstdio>

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    float *scratch = (float *)malloc(sizeof(float));
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        *scratch = a * x[i];
        y[i] += *scratch;
    }
    free(scratch);
    if (n == 0)
        printf("nothing to do\n");
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
