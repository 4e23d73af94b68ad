/* Lab ch3_debug_stream, a solution: one wait for the stream, after the copy back, before the host reads.
 *
 * cudaMemcpyAsync and the launch only queued their work on `stream`, and the host went straight on: it
 * read host_squares while the copy in was still under way, added up the runner's poison (NaN), and every
 * weight came out NaN. cudaStreamSynchronize(stream), after the last call queued on the stream, makes the
 * host wait until the stream has run all of it, the copy back included: host_squares then holds the
 * squares, and the host's loops read them. The wait is for `stream`, the one the work is on. The runner
 * made it non-blocking, so a wait on stream 0 would return at once, before the copy back; a wait placed
 * before the copy back is queued would leave that copy racing the host's loop; cudaDeviceSynchronize,
 * which the rules refuse, waits for every stream of the GPU, work that is not this code's included. An
 * event recorded on `stream` after the copy back and waited for with cudaEventSynchronize is the same wait
 * as this one.
 *   make lab L=ch3_debug_stream FILE=labs/solutions/ch3_debug_stream.cu
 */

#define THREADS 256

/* Fixed: each thread squares one element. */
__global__ void square(const float *in, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

/* host_in, host_squares and host_out are pinned, n floats each; dev_in and dev_squares hold n floats each
 * on the GPU; stream is the runner's. */
void lab_normalize_squares(const float *host_in, float *host_squares, float *host_out, long long n, float *dev_in,
                           float *dev_squares, cudaStream_t stream)
{
    size_t bytes = n * sizeof(float);
    cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, stream);
    square<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dev_in, dev_squares, n);
    cudaMemcpyAsync(host_squares, dev_squares, bytes, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);  /* the stream has run it all: the copy back has landed in host_squares */

    /* The host's part: the squares added up, then each divided by their sum. */
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += host_squares[i];
    for (long long i = 0; i < n; i++)
        host_out[i] = (float)(host_squares[i] / sum);
}
