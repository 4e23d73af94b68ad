/* A cheat: a function of CUDA's runtime defined again with C linkage, so that the runner's wait for
 * the GPU would return at once. The rules refuse any name the file defines with C linkage. */
extern "C" cudaError_t cudaDeviceSynchronize(void)
{
    return cudaSuccess;
}

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
