/* Lab ch3_pipeline, a solution: chunks dealt to the streams in turn, each chunk's copy in, kernel and
 * copy out queued on its stream, one synchronisation at the end.
 *   make lab L=ch3_pipeline FILE=labs/solutions/ch3_pipeline.cu
 */

#define STREAMS 4
#define CHUNK (1 << 22)

__global__ void scale_shift(const float *in, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i] + 1.0f;
}

/* host_in and host_out are pinned; dev_in and dev_out hold n floats each on the GPU. */
void lab_pipeline(const float *host_in, float *host_out, long long n, float *dev_in, float *dev_out,
                  cudaStream_t streams[STREAMS])
{
    long long chunks = (n + CHUNK - 1) / CHUNK;
    for (long long c = 0; c < chunks; c++) {
        long long first = c * CHUNK;
        long long count = n - first < CHUNK ? n - first : CHUNK;  /* the last chunk is shorter */
        cudaStream_t s = streams[c % STREAMS];
        cudaMemcpyAsync(dev_in + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, s);
        scale_shift<<<(count + 255) / 256, 256, 0, s>>>(dev_in + first, dev_out + first, count);
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    cudaDeviceSynchronize();  /* the caller reads host_out next */
}
