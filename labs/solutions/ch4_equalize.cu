/* Lab ch4_equalize, a solution: a shared-memory histogram (ch4_histogram), a 256-element Hillis and
 * Steele scan in one block (ch4_block_scan) that also finds cdf_min, and a 2D kernel (ch1_image).
 *   make lab L=ch4_equalize FILE=labs/solutions/ch4_equalize.cu
 */

#define LEVELS 256

__global__ void histogram(const unsigned char *in, long long pixels, unsigned *bins)
{
    __shared__ unsigned s_bins[LEVELS];
    for (int v = threadIdx.x; v < LEVELS; v += blockDim.x)
        s_bins[v] = 0;
    __syncthreads();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < pixels;
         i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&s_bins[in[i]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < LEVELS; v += blockDim.x)
        atomicAdd(&bins[v], s_bins[v]);
}

__global__ void make_lut(const unsigned *bins, long long pixels, unsigned char *lut)
{
    __shared__ unsigned cdf[LEVELS];
    __shared__ unsigned cdf_min;
    int v = threadIdx.x;
    cdf[v] = bins[v];
    __syncthreads();
    for (int offset = 1; offset < LEVELS; offset *= 2) {
        unsigned below = v >= offset ? cdf[v - offset] : 0;
        __syncthreads();
        cdf[v] += below;
        __syncthreads();
    }
    if (bins[v] > 0 && (v == 0 || cdf[v - 1] == 0))  /* the darkest level present: one thread */
        cdf_min = cdf[v];
    __syncthreads();
    unsigned long long above = cdf[v] < cdf_min ? 0 : cdf[v] - cdf_min, range = pixels - cdf_min;
    lut[v] = range == 0 ? v : (unsigned char)((above * 255 + range / 2) / range);
}

__global__ void apply(const unsigned char *in, unsigned char *out, int width, int height, const unsigned char *lut)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[(long long)y * width + x] = lut[in[(long long)y * width + x]];
}

/* The runner calls this with arrays on the GPU: bins holds 256 counts, lut 256 levels. */
void lab_equalize(const unsigned char *in, unsigned char *out, int width, int height, unsigned *bins,
                  unsigned char *lut, int sms)
{
    long long pixels = (long long)width * height;
    cudaMemsetAsync(bins, 0, LEVELS * sizeof(unsigned));
    histogram<<<8 * sms, 256>>>(in, pixels, bins);
    make_lut<<<1, LEVELS>>>(bins, pixels, lut);
    dim3 threads(32, 8), blocks((width + 31) / 32, (height + 7) / 8);
    apply<<<blocks, threads>>>(in, out, width, height, lut);
}
