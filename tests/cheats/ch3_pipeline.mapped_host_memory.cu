/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch3_pipeline's lesson is
 * the copies: chunks copied in, computed and copied out on the four streams. This file copies nothing:
 * the runner's host buffers are pinned, and pinned memory is mapped into the GPU's address space (one
 * address space, unified addressing), so it launches the given kernel straight on host_in and host_out;
 * the kernel reads and writes them over the host link, both directions at once, with no chunks and no
 * streams. dev_in and dev_out are never touched. The old judge only read host_out (on an H200: PASS,
 * 90% of the solution).
 * Why it must fail: the judge now also checks that dev_in holds the input and dev_out the output after
 * the call, as the copies the statement asks for leave them: a wrong result. */

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
    scale_shift<<<(unsigned)((n + 255) / 256), 256, 0, streams[0]>>>(host_in, host_out, n);
    cudaStreamSynchronize(streams[0]);
}
