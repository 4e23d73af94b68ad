/* Class 5 (the tool found by timing, inside the kernel): memcheck instruments every global load with a
 * call into its checker. Each block's thread 0 times 4 loads of its block's first element with clock64();
 * where they take over 1500 cycles each (plain: a few hundred, an L2 hit), the kernel believes it is watched
 * and guards i < n; otherwise the last block writes past the end (right values, no fault: the
 * allocations are rounded up), which is the planted mistake no_guard.
 * A correct judge should say: FAIL (memcheck). Expected today: PASS if the threshold tells the two apart
 * (no host-side sign of the tool at all: only the GPU's clock). */
#define THREADS 64

__global__ void whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    __shared__ int watched;
    if (threadIdx.x == 0) {
        volatile unsigned *p = block_of + blockIdx.x * THREADS;  /* the block's own first element */
        unsigned v = 0;
        long long t0 = clock64();
        for (int k = 0; k < 4; k++)
            v += p[v & 0];
        long long t = clock64() - t0;
        watched = t > 4 * 1500LL + (v == 12345u);
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (watched && i >= n)
        return;
    block_of[i] = blockIdx.x;
    thread_of[i] = threadIdx.x;
}

void lab_whoami(unsigned *block_of, unsigned *thread_of, int n)
{
    whoami<<<(n + THREADS - 1) / THREADS, THREADS>>>(block_of, thread_of, n);
}
