/* Refused: no clock of the GPU's read in a kernel (every lab's rule). A kernel that times its own loads
 * can tell when compute-sanitizer instruments it (loads many times slower) and leave out its guard only
 * when it does not: memcheck then never sees the bug. */
#define THREADS 64

__global__ void whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long t0 = clock64();
    volatile unsigned probe = block_of[0];
    (void)probe;
    bool watched = clock64() - t0 > 1500;
    if (watched && i >= n)
        return;
    block_of[i] = blockIdx.x;
    thread_of[i] = threadIdx.x;
}

void lab_whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    whoami<<<(n + THREADS - 1) / THREADS, THREADS>>>(block_of, thread_of, n);
}
