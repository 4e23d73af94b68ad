/* Lab ch4_block_scan, a solution: Hillis and Steele's scan in shared memory, each step's read and write
 * separated by a barrier.
 *   make lab L=ch4_block_scan FILE=labs/solutions/ch4_block_scan.cu
 */

#define THREADS 1024

__global__ void block_scan(const unsigned *in, unsigned *out, long long n)
{
    __shared__ unsigned s[THREADS];
    int t = threadIdx.x;
    long long i = blockIdx.x * (long long)THREADS + t;
    s[t] = i < n ? in[i] : 0;  /* past n: zeros, which change no sum */
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        unsigned below = t >= offset ? s[t - offset] : 0;
        __syncthreads();  /* everyone has read before anyone writes */
        s[t] += below;
        __syncthreads();  /* everyone has written before the next step reads */
    }
    if (i < n)
        out[i] = s[t];
}

/* The runner calls this with arrays on the GPU. */
void lab_block_scan(const unsigned *in, unsigned *out, long long n)
{
    block_scan<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
