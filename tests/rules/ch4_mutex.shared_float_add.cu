/* Refused: ch4_mutex's lock is an atomicCAS and an atomicExch, and nothing else is atomic; here each
 * block also counts its values with a float atomicAdd on shared memory, which ptxas writes as a CAS loop
 * of its own (ATOMS.CAST.SPIN): an add, refused as the lock's CAS (ATOMG.E.CAS) is not. */
struct summary { unsigned long long count, sum; unsigned min, max; };

__global__ void summarize(const unsigned *values, long long n, struct summary *total, int *mutex)
{
    __shared__ float seen;
    if (threadIdx.x == 0)
        seen = 0.0f;
    __syncthreads();
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&seen, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) {
        while (atomicCAS(mutex, 0, 1) != 0)
            ;
        __threadfence();
        total->count += (unsigned long long)seen;
        __threadfence();
        atomicExch(mutex, 0);
    }
}
