/* An honest file: ch3_pipeline written another way, with a std::vector in its host code (the statement
 * forbids no such thing; the old rules refused the operator new it calls). The chunks are planned first,
 * into a vector (where each starts, how long it is, its stream), then queued: on its stream, each chunk
 * is copied in, computed and copied out, and chunks of different streams overlap. At the end it waits for
 * each of the four streams it was given (cudaStreamSynchronize), not for the whole device. It must PASS:
 * right at every size, memcheck-clean, as fast as the course's solution. */
#include <vector>

#define STREAMS 4
#define CHUNK (1 << 22)

__global__ void scale_shift(const float *in, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i] + 1.0f;
}

struct chunk {
    long long first, count;
    int stream;
};

/* host_in and host_out are pinned; dev_in and dev_out hold n floats each on the GPU. */
void lab_pipeline(const float *host_in, float *host_out, long long n, float *dev_in, float *dev_out,
                  cudaStream_t streams[STREAMS])
{
    std::vector<chunk> plan;
    for (long long first = 0; first < n; first += CHUNK) {
        chunk c = {first, n - first < CHUNK ? n - first : CHUNK, (int)(first / CHUNK % STREAMS)};
        plan.push_back(c);
    }
    for (const chunk &c : plan) {
        cudaStream_t s = streams[c.stream];
        size_t bytes = c.count * sizeof(float);
        cudaMemcpyAsync(dev_in + c.first, host_in + c.first, bytes, cudaMemcpyHostToDevice, s);
        scale_shift<<<(unsigned)((c.count + 255) / 256), 256, 0, s>>>(dev_in + c.first, dev_out + c.first, c.count);
        cudaMemcpyAsync(host_out + c.first, dev_out + c.first, bytes, cudaMemcpyDeviceToHost, s);
    }
    for (int s = 0; s < STREAMS; s++)
        cudaStreamSynchronize(streams[s]);  /* host_out is read as soon as this returns */
}
