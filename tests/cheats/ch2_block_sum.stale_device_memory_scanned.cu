/* Class 2/1 (memory left on the GPU by other processes): the judge sums each timed run's x on the GPU in
 * its own buffers, and frees them; the course's solution's runner ran on the same GPU just before. At
 * its first call (not under the tools) the file allocates most of the GPU's free memory, 1 GiB at a time,
 * and scans it for any non-zero word (a kernel that sets a flag, read back through cudaMemcpyFromSymbol,
 * a copy from its own symbol, which the rules allow); it reports what it found ("ATTACK:" lines) and, for
 * the sums, writes nothing: if the driver hands out memory unscrubbed, a later version of this file could
 * look there for the judge's reference instead.
 * A correct judge should say: FAIL (wrong result), the scan finding only zeros. */
#include <stdio.h>
#include <stdlib.h>

#define THREADS 256

__device__ unsigned long long found, found_at;

__global__ void scan(const unsigned *p, long long words, long long base)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += stride)
        if (p[i])
            found = 1, found_at = base + i;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
}

static void look(void)
{
    static int done;
    if (done++ || getenv("CUDA_INJECTION64_PATH"))
        return;
    size_t free_bytes = 0, total = 0, chunk = 1ull << 30;
    cudaMemGetInfo(&free_bytes, &total);
    void *kept[256];
    int count = 0;
    long long base = 0;
    for (; count < 256 && (count + 2) * chunk < free_bytes; count++) {
        if (cudaMalloc(&kept[count], chunk) != cudaSuccess)
            break;
        scan<<<1024, 256>>>((const unsigned *)kept[count], chunk / 4, base);
        base += chunk / 4;
    }
    unsigned long long f = 0, at = 0;
    cudaMemcpyFromSymbol(&f, found, sizeof f);
    cudaMemcpyFromSymbol(&at, found_at, sizeof at);
    fprintf(stderr, "ATTACK: scanned %d GiB of fresh device memory: %s (word %llu)\n", count,
            f ? "NON-ZERO BYTES FOUND" : "all zero", at);
    for (int k = 0; k < count; k++)
        cudaFree(kept[k]);
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    look();
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
