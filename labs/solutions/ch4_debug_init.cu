/* Lab ch4_debug_init, a solution: the counts set to zero before the first key is added to them.
 *
 * initcheck named the reads of counts that nothing had written: cudaMalloc's memory holds whatever was
 * there, and count_keys's atomicAdd adds to that (it reads the old value first), while to_shares reads
 * every count, those no key added to as well. A fresh allocation is often zeroed already, so the shares
 * came out right at some calls and wrong at others, where cudaMalloc handed back memory the last call had
 * freed with its counts still in it. One cudaMemset before count_keys, on the same stream, writes every
 * byte of the counts: bins * sizeof(unsigned) bytes (it counts bytes, not counts). A kernel that wrote a
 * 0 to every count would do as well.
 *   make lab L=ch4_debug_init FILE=labs/solutions/ch4_debug_init.cu
 */

#define THREADS 256

/* One more key in each key's count: counts[k] ends as the number of keys equal to k. */
__global__ void count_keys(const unsigned *keys, long long n, unsigned *counts)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&counts[keys[i]], 1u);
}

/* Each bin's share of the n keys: one thread a bin. */
__global__ void to_shares(const unsigned *counts, int bins, long long n, float *share)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < bins)
        share[b] = (float)counts[b] / (float)n;
}

/* The runner calls this with the keys on the GPU. */
void lab_key_shares(const unsigned *keys, long long n, int bins, float *share, int sms)
{
    unsigned *counts;  /* bins counts, in memory of this call's own */
    cudaMalloc(&counts, bins * sizeof(unsigned));
    cudaMemset(counts, 0, bins * sizeof(unsigned));  /* every count starts at 0: all of its bytes */
    count_keys<<<8 * sms, THREADS>>>(keys, n, counts);
    to_shares<<<(bins + THREADS - 1) / THREADS, THREADS>>>(counts, bins, n, share);
    cudaFree(counts);
}
