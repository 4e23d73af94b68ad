/* An honest file: ch4_block_scan written another way. Hillis and Steele's ten steps, each reading one
 * __shared__ buffer and writing the other (double buffering): a step never writes what it reads, so it
 * needs one __syncthreads() instead of two (read, wait, write, wait). Past n the segment holds zeros.
 * No warp shuffles, no atomics: integers, so the result is exact. It must PASS: exact at every size,
 * racecheck- and memcheck-clean, at least as fast as the course's solution. */

#define THREADS 1024

__global__ void block_scan(const unsigned *in, unsigned *out, long long n)
{
    __shared__ unsigned buffer[2][THREADS];
    int t = threadIdx.x;
    long long i = blockIdx.x * (long long)THREADS + t;
    int from = 0;
    buffer[from][t] = i < n ? in[i] : 0u;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        unsigned v = buffer[from][t];
        if (t >= offset)
            v += buffer[from][t - offset];
        buffer[1 - from][t] = v;  /* the other buffer: nobody reads it in this step */
        from = 1 - from;
        __syncthreads();  /* this step's buffer is whole before the next step reads it */
    }
    if (i < n)
        out[i] = buffer[from][t];
}

/* The runner calls this with arrays on the GPU. */
void lab_block_scan(const unsigned *in, unsigned *out, long long n)
{
    block_scan<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
