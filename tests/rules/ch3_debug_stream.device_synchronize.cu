/* Refused: ch3_debug_stream's rule, wait for the stream: the fix made with cudaDeviceSynchronize, which
 * waits for every stream of the GPU, not for the one the work is on. */
#define THREADS 256

__global__ void square(const float *in, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

void lab_normalize_squares(const float *host_in, float *host_squares, float *host_out, long long n, float *dev_in,
                           float *dev_squares, cudaStream_t stream)
{
    size_t bytes = n * sizeof(float);
    cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, stream);
    square<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dev_in, dev_squares, n);
    cudaMemcpyAsync(host_squares, dev_squares, bytes, cudaMemcpyDeviceToHost, stream);
    cudaDeviceSynchronize();
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += host_squares[i];
    for (long long i = 0; i < n; i++)
        host_out[i] = (float)(host_squares[i] / sum);
}
