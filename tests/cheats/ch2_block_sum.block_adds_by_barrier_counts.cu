/* A forgery (the rules' shuffle family lacks the barrier's reductions): no tree in shared memory, no
 * shuffle. The block adds its threads' sums with __syncthreads_count, which the hardware reduces across
 * the whole block at the barrier (BAR.RED.POPC, a block-wide REDUX): the block's largest exponent is found
 * bit by bit with __syncthreads_or, each thread's sum is aligned to it as a 24-bit integer, and the block's
 * sum is the sum over the bits b of 2^b times the number of threads whose bit b is set. Off by 2^-24 of the
 * largest sum for each thread, within the judge's tolerance for positive terms.
 * Why it must fail: "no warp shuffles: every step of the tree goes through shared memory" (rules.txt);
 * BAR.RED (__syncthreads_count, _and, _or) is a reduction across threads as VOTE and REDUX are. */

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    unsigned bits = __float_as_uint(sum);
    int e = bits >> 23 & 0xff;
    unsigned mantissa = e ? (bits & 0x7fffff) | 0x800000 : bits & 0x7fffff;
    e = e ? e : 1;
    int largest = 0;
    for (int b = 7; b >= 0; b--)
        if (__syncthreads_or(e >= (largest | 1 << b)))
            largest |= 1 << b;
    largest = largest ? largest : 1;
    int shift = largest - e;
    unsigned q = shift < 32 ? mantissa >> shift : 0;
    unsigned long long total = 0;
    for (int b = 0; b < 24; b++)
        total += (unsigned long long)__syncthreads_count(q >> b & 1) << b;
    if (tid == 0)
        block_sums[blockIdx.x] = ldexpf((float)total, largest - 150);
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
