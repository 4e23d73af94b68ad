/* An honest file: ch1_image written another way, on a CUDA stream of its own (the statement forbids no
 * such thing; the old rules refused cudaStreamCreateWithFlags). The stream is made at the first call and
 * kept; the kernel runs on it, and the launch function waits for that stream before it returns. The
 * blocks are 32 x 8 (a warp reads 32 consecutive pixels of a row), one thread per pixel, guarded on x
 * and y. It must PASS: right at every shape, memcheck-clean, as fast as the course's solution. */

__global__ void mirror(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        long long row = (long long)y * width;
        out[row + x] = in[row + width - 1 - x];
    }
}

/* The runner calls this with pictures on the GPU: launch mirror here. */
void lab_mirror(const float *in, float *out, int width, int height)
{
    static cudaStream_t stream;
    if (!stream && cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess)
        stream = 0;  /* (the default stream will do) */
    dim3 threads(32, 8);
    dim3 blocks((width + 31) / 32, (height + 7) / 8);
    mirror<<<blocks, threads, 0, stream>>>(in, out, width, height);
    cudaStreamSynchronize(stream);
}
