/* Lab ch3_pipeline: copies and compute overlapped on streams (chapter 3, Examples 3.2 and 3.3).
 *
 * Write lab_pipeline: out = scale_shift(in) for n floats that live in pinned host memory, through the
 * GPU. One stream would copy all of in, then compute, then copy all of out back, with the copy engines
 * idle two thirds of the time. Instead cut the array in chunks of CHUNK elements (the last one shorter)
 * and give chunk c to stream c % STREAMS: on that stream, copy the chunk in (cudaMemcpyAsync), launch
 * scale_shift on it, copy it out. Copies in one direction, copies in the other and kernels of different
 * streams then run at the same time. Return only when everything has finished (out is read as soon as
 * you return). Each chunk passes through dev_in and dev_out at its own place (elements c * CHUNK on):
 * after your call the judge checks that dev_in holds in and dev_out holds out, as the copies leave them.
 *
 * Contract:
 *   sizes: checked n = 1, 33, 1025, 1000003, CHUNK, CHUNK + 1, 5 CHUNK + 12345, 32 CHUNK + 1 (CHUNK is
 *     2^22); timed n = 32 CHUNK + 1, the whole call.
 *   pointers: host_in and host_out, pinned host memory of exactly n floats each (cudaMallocHost's; in the
 *     timed runs the judge's own pages, pinned); dev_in and dev_out, each its own cudaMalloc of exactly n
 *     floats, 256-byte aligned; none offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: in: a random sign, exponent from -60 to 60 and 23 random mantissa bits, drawn afresh for every
 *     call; host_out, dev_in and dev_out arrive filled with 0xff bytes.
 *   index: 32-bit will do: n is below 2^31 (at most 2^27 + 1 here); n itself is a long long.
 *   binding: the Rules line and what host_out, dev_in and dev_out hold on return; the chunks of CHUNK
 *     dealt to the streams in turn are the course's solution.
 *
 * Rules: the kernel is fixed; the buffers are given; use the streams given (they exist already).
 * Target: 70% of the course's solution's speed; the limit is the transfer bound, the time the larger of
 * the two copies takes alone at the bandwidth of the host link measured now.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch3_pipeline
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
    /* your code here */
}
