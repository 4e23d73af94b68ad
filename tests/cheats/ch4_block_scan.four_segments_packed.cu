/* A forgery, class 8 of issue 49 (inputs narrower than the statement). ch4_block_scan promises unsigned
 * integers; the old judge drew them from 1 to 7, so no segment's sum passed 7 x 1024 < 2^16. This file
 * packs four segments into the four 16-bit fields of one 64-bit word and scans them together: a block of
 * 1024 threads does four segments' Hillis and Steele steps at once, with a quarter of the blocks, of the
 * barriers and of the shared-memory steps. Right for the old judge's values, and faster: the old judge (on
 * an H200): PASS, 245% of the solution.
 * Why it must fail: the values now come from the whole 32-bit range the statement promises; a field's
 * sum overflows into the next segment's: a wrong result. */

#define THREADS 1024
#define PACKED 4  /* segments a block scans at once */

__global__ void block_scan(const unsigned *in, unsigned *out, long long n)
{
    __shared__ unsigned long long s[THREADS];
    int t = threadIdx.x;
    long long first = blockIdx.x * (long long)PACKED * THREADS;
    unsigned long long mine = 0;
    for (int f = 0; f < PACKED; f++) {
        long long i = first + (long long)f * THREADS + t;
        mine |= (unsigned long long)(i < n ? in[i] & 0xffffu : 0u) << (16 * f);
    }
    s[t] = mine;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        unsigned long long below = t >= offset ? s[t - offset] : 0;
        __syncthreads();
        s[t] += below;  /* four 16-bit sums at once: none carries into the next while each stays < 2^16 */
        __syncthreads();
    }
    for (int f = 0; f < PACKED; f++) {
        long long i = first + (long long)f * THREADS + t;
        if (i < n)
            out[i] = (unsigned)(s[t] >> (16 * f) & 0xffffu);
    }
}

/* The runner calls this with arrays on the GPU. */
void lab_block_scan(const unsigned *in, unsigned *out, long long n)
{
    long long blocks = (n + PACKED * THREADS - 1) / (PACKED * THREADS);
    block_scan<<<(unsigned)blocks, THREADS>>>(in, out, n);
}
