/* Lab ch3_debug_stream: the host reads a result before its stream is done (chapter 3, Example 3.1).
 *
 * A debugging lab: the code below is written, and it has a bug. lab_normalize_squares turns n floats into
 * weights that add up to 1: out[i] = in[i]^2 / (the sum of every in[j]^2). The GPU squares, on `stream`:
 * the copy in, the kernel square, the copy back into host_squares, pinned host memory. The host then adds
 * the squares up and divides, as normalize.cu's task with its sum taken on the host. Run `make lab
 * L=ch3_debug_stream`: step 1 finds every weight of host_out wrong (NaN), at the largest size if not
 * before, while host_squares, read back once the runner has waited for the GPU, holds the right squares.
 * Make the file correct, changing as little as you can.
 *
 * cudaMemcpyAsync and a launch only queue their work on the stream, and return at once: the host goes on
 * while the GPU copies and computes, and the copy back writes host_squares whenever the stream gets to it.
 * Nothing in the host code waits for that, so its loop reads host_squares as it is at that moment: the
 * poison the runner filled it with (NaN), or squares only partly landed. A sum with a NaN in it is NaN, and
 * so is every weight divided by it. Who gets there first is a matter of timing. At the largest size,
 * 2^26 + 3 floats (256 MiB), the copy in alone takes milliseconds over the host link, and the host starts
 * reading within microseconds: the file fails there every time. At the small sizes the copies take
 * microseconds too, and whether they land before the host reads can change from run to run: a pass there
 * proves nothing. No compute-sanitizer tool sees a race between the host and the GPU: the results are how
 * you know (ch3_streams_events/README.md tells the same bug, where normalize waits).
 * The fix is one wait, in the right place: for the stream the work is on, after the last call queued on it
 * and before the host's first read of what that work writes. cudaStreamSynchronize(stream) is that wait;
 * an event recorded on `stream` after the copy back, waited for with cudaEventSynchronize, is the same. The
 * stream is the runner's, made with cudaStreamNonBlocking: stream 0 neither waits for it nor is waited for
 * by it, so a wait on stream 0 waits for none of this work.
 *
 * Contract:
 *   sizes: checked n = 1, 33, 1025, 65537, 1000003, 2^24 + 1, then 2^26 + 3 in three calls. Not timed.
 *   pointers: host_in, host_squares and host_out, pinned host memory (cudaMallocHost's) of exactly n floats
 *     each; dev_in and dev_squares, each its own cudaMalloc of exactly n floats, 256-byte aligned; none
 *     offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: host_in uniform in [0.5, 1.5), drawn afresh for every call; host_squares, host_out, dev_in and
 *     dev_squares arrive filled with 0xff bytes (NaN). On return, dev_squares and host_squares are checked
 *     too (the squares, exact), and host_out within two roundings of a float, relative.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 3 here); n itself is a long long.
 *   binding: the Rules line, the fixed kernel, its launch and the two copies: the fix is to the bug, not
 *     to the design.
 *
 * Rules: the kernel, its launch and the two copies are fixed, on `stream`; wait for that stream only (no
 * cudaDeviceSynchronize); the stream is given (no streams of your own).
 * Not timed: the lab is judged on its results alone.
 *   make lab L=ch3_debug_stream
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

    /* The host's part: the squares added up, then each divided by their sum. */
    double sum = 0.0;
    for (long long i = 0; i < n; i++)
        sum += host_squares[i];
    for (long long i = 0; i < n; i++)
        host_out[i] = (float)(host_squares[i] / sum);
}
