/* Accepted: ch3_debug_stream fixed with an event recorded on the stream after the copy back and waited
 * for, the statement's other way; the event is the file's own, made and destroyed in the call. */
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
    cudaEvent_t landed;
    cudaEventCreateWithFlags(&landed, cudaEventDisableTiming);
    cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, stream);
    square<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dev_in, dev_squares, n);
    cudaMemcpyAsync(host_squares, dev_squares, bytes, cudaMemcpyDeviceToHost, stream);
    cudaEventRecord(landed, stream);
    cudaEventSynchronize(landed);
    cudaEventDestroy(landed);
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += host_squares[i];
    for (long long i = 0; i < n; i++)
        host_out[i] = (float)(host_squares[i] / sum);
}
