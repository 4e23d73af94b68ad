/* A cheat: each tile staged in a scratch array of the file's own (cudaMalloc) rather than in shared memory:
 * a copy of data, then each element written back from its place in the copy. Right, and no shared memory
 * at all: the rules refuse memory of the file's own. */
#define THREADS 256

__global__ void copy_out(const float *data, float *scratch, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        scratch[i] = data[i];
}

__global__ void rotate_from(const float *scratch, float *data, int n, int tile, int shift)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int first = i / tile * tile, length = min(tile, n - first), j = i - first + shift % length;
        data[i] = scratch[first + (j < length ? j : j - length)];
    }
}

void lab_rotate_tiles(float *data, int n, int tile, int shift)
{
    float *scratch;
    cudaMalloc(&scratch, (size_t)n * sizeof(float));
    copy_out<<<(n + THREADS - 1) / THREADS, THREADS>>>(data, scratch, n);
    rotate_from<<<(n + THREADS - 1) / THREADS, THREADS>>>(scratch, data, n, tile, shift);
    cudaFree(scratch);
}
