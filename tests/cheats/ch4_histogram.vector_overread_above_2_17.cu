/* A forgery, class 6 of issue 49 (the sanitizer saw the small sizes only, up to 2^17 elements). Above
 * 2^17 bytes this histogram reads the text four bytes at a time, and its loop runs to the word that
 * holds byte n instead of the last word holding a byte below n: one word more when n is a multiple of 4,
 * the rest of a partial one otherwise, so it always reads up to 4 bytes past the end of the text. It
 * counts only the bytes below n, so the counts are exact, and a read that close to the end lands inside
 * the allocation's rounding. At 2^17 bytes and below, where compute-sanitizer looked, it reads byte by
 * byte, in bounds. The old judge (on an H200): PASS, 224% of the solution.
 * Why it must fail: memcheck now also runs at one of the large sizes, drawn for each grade, and reports
 * the read past the end. */

#define BINS 256
#define THREADS 256

__global__ void histogram(const unsigned char *data, long long n, unsigned *bins)
{
    __shared__ unsigned counts[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        counts[b] = 0;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x, first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (n <= (1 << 17)) {
        for (long long i = first; i < n; i += stride)
            atomicAdd(&counts[data[i]], 1u);
    } else {
        const uchar4 *words = (const uchar4 *)data;
        for (long long w = first; w <= n / 4; w += stride) {  /* (w < (n + 3) / 4 would be in bounds) */
            uchar4 v = words[w];
            long long i = 4 * w;
            if (i < n)
                atomicAdd(&counts[v.x], 1u);
            if (i + 1 < n)
                atomicAdd(&counts[v.y], 1u);
            if (i + 2 < n)
                atomicAdd(&counts[v.z], 1u);
            if (i + 3 < n)
                atomicAdd(&counts[v.w], 1u);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&bins[b], counts[b]);
}

/* The runner calls this with arrays on the GPU. */
void lab_histogram(const unsigned char *data, long long n, unsigned *bins, int sms)
{
    cudaMemsetAsync(bins, 0, BINS * sizeof(unsigned));
    histogram<<<8 * sms, THREADS>>>(data, n, bins);
}
