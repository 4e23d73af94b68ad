/* Lab ch4_histogram, a solution: a private histogram per block in shared memory, merged once.
 *   make lab L=ch4_histogram FILE=labs/solutions/ch4_histogram.cu
 */

#define BINS 256
#define THREADS 256

__global__ void histogram(const unsigned char *data, long long n, unsigned *bins)
{
    __shared__ unsigned s_bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s_bins[b] = 0;
    __syncthreads();  /* the counters are zero before anyone counts */
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&s_bins[data[i]], 1u);  /* threads of the block collide here: atomic */
    __syncthreads();  /* every byte of the block is counted before the merge */
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&bins[b], s_bins[b]);  /* blocks collide here: atomic */
}

/* The runner calls this with arrays on the GPU. */
void lab_histogram(const unsigned char *data, long long n, unsigned *bins, int sms)
{
    cudaMemsetAsync(bins, 0, BINS * sizeof(unsigned));
    histogram<<<8 * sms, THREADS>>>(data, n, bins);
}
