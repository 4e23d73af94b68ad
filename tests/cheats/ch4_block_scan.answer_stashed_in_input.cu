/* A forgery, class 5 of issue 49 (answers kept in the inputs). The old judge of ch4_block_scan drew its
 * values from 1 to 7 and, for the timed runs, wrote the input once: 3 bits used of 32, the same buffer
 * run after run. After an honest scan, this file writes each element's answer into the unused bits of
 * its own input (bits 16 to 28; the answers stay below 7 x 1024 < 2^13) and marks the buffer (the top
 * bit of its first element, which no value of 1 to 7 has); a later call that finds the mark does no
 * scan, only out[i] = in[i] >> 16: a copy, where the scan runs at a quarter of the copy bandwidth. The old
 * judge (on an H200): PASS, 152% of the solution. (The input is const: the file casts that away.)
 * Why it must fail: every call's input is drawn afresh over all 32 bits the statement promises: half of
 * them have the top bit of their first element set, which this file takes for its mark, and then it
 * answers from bits that hold no answer (a wrong result); a call that stashes changes its input, which
 * the judge may check too. */

#define THREADS 1024
#define MARK 0x80000000u  /* in[0]'s top bit: a stashed buffer */

__device__ bool stashed(const unsigned *in, long long n)
{
    return (in[0] & MARK) != 0;
}

__global__ void block_scan(const unsigned *in, unsigned *out, long long n)
{
    __shared__ unsigned s[THREADS];
    int t = threadIdx.x;
    long long i = blockIdx.x * (long long)THREADS + t;
    if (stashed(in, n)) {  /* the same for every block: the stash is written by the next kernel */
        if (i < n)
            out[i] = in[i] >> 16 & 0x1fffu;
        return;
    }
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        unsigned below = t >= offset ? s[t - offset] : 0;
        __syncthreads();
        s[t] += below;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}

/* After the scan: each answer into its input's bits 16 to 28 (the top bits stay 0 in this kernel) ... */
__global__ void stash(const unsigned *in, const unsigned *out, long long n)
{
    unsigned *writable = (unsigned *)in;
    long long i = blockIdx.x * (long long)THREADS + threadIdx.x;
    if (!stashed(in, n) && i < n)
        writable[i] = (in[i] & 0xffffu) | (out[i] & 0x1fffu) << 16;
}

/* ... then, once the whole stash is in, the mark. */
__global__ void mark(const unsigned *in)
{
    unsigned *writable = (unsigned *)in;
    writable[0] |= MARK;
}

/* The runner calls this with arrays on the GPU. */
void lab_block_scan(const unsigned *in, unsigned *out, long long n)
{
    block_scan<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
    if (n >= 1000000) {  /* only where it pays: the timed size */
        stash<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
        mark<<<1, 1>>>(in);
    }
}
