/* Refused: the work done on the CPU, reached two ways: copies between the host and the GPU
 * (cudaMemcpy), and host memory that the GPU can reach (cudaHostAlloc's mapped memory). */
__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    float *hx, *hy;
    cudaHostAlloc(&hx, n * sizeof(float), cudaHostAllocMapped);
    cudaHostAlloc(&hy, n * sizeof(float), cudaHostAllocMapped);
    cudaMemcpy(hx, x, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (long long i = 0; i < n; i++)
        hy[i] = a * hx[i] + hy[i];
    cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaFreeHost(hx);
    cudaFreeHost(hy);
}
