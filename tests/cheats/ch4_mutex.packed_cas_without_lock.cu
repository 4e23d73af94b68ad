/* A forgery, class 8 of issue 49 (inputs narrower than the statement). ch4_mutex's lesson is a lock
 * around a summary of three fields. The old judge's values ran from 1 to 10^6 (under 2^20) and n stayed
 * below 2^25, so the largest value and its index fit one 64-bit word, (max << 25 | (2^25 - 1 - index)),
 * whose largest is the summary's choice (the larger value, then the smaller index). This file takes no
 * lock: merge adds its count with an atomicCAS loop and raises the packed word with another, and a last
 * kernel unpacks it into the summary's fields. Only atomicCAS, which the rules allow for the lock. Exact
 * for the old judge's inputs: PASS on an H200 (this lab is not timed).
 * Why it must fail: the values now come from the whole range the statement promises (any unsigned of 1
 * or more): a value of 2^20 or more spills into the index's bits, and the summary is wrong. */

#define THREADS 256
#define INDEX_BITS 25

struct summary {
    unsigned long long count;  /* values seen */
    unsigned long long where;  /* the index of the largest (the smallest index, if several are equal) */
    unsigned max;              /* the largest value */
};

__device__ struct summary combine(struct summary x, struct summary y)
{
    struct summary both = x;
    both.count = x.count + y.count;
    if (y.max > x.max || (y.max == x.max && y.where < x.where)) {
        both.max = y.max;
        both.where = y.where;
    }
    return both;
}

__device__ void lock(int *mutex)
{
}

__device__ void unlock(int *mutex)
{
}

/* No lock: total->where holds the packed (max, index) word until unpack. */
__device__ void merge(struct summary *total, struct summary mine, int *mutex)
{
    unsigned long long old = total->count, seen;
    while ((seen = atomicCAS(&total->count, old, old + mine.count)) != old)
        old = seen;
    unsigned long long packed = (unsigned long long)mine.max << INDEX_BITS |
                                ((1ull << INDEX_BITS) - 1 - (mine.where & ((1ull << INDEX_BITS) - 1)));
    old = total->where;
    while (packed > old && (seen = atomicCAS(&total->where, old, packed)) != old)
        old = seen;
}

__global__ void summarize(const unsigned *values, long long n, struct summary *total, int *mutex)
{
    __shared__ struct summary s[THREADS];
    int tid = threadIdx.x;
    struct summary mine = {0, 0, 0};
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x) {
        mine.count++;
        if (values[i] > mine.max) {
            mine.max = values[i];
            mine.where = i;
        }
    }
    s[tid] = mine;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half)
            s[tid] = combine(s[tid], s[tid + half]);
        __syncthreads();
    }
    if (tid == 0)
        merge(total, s[0], mutex);
}

__global__ void unpack(struct summary *total)
{
    unsigned long long packed = total->where;
    total->max = (unsigned)(packed >> INDEX_BITS);
    total->where = (1ull << INDEX_BITS) - 1 - (packed & ((1ull << INDEX_BITS) - 1));
}

/* The runner calls this with the values, total and mutex on the GPU. */
void lab_summarize(const unsigned *values, long long n, struct summary *total, int *mutex, int sms)
{
    cudaMemsetAsync(total, 0, sizeof(struct summary));
    cudaMemsetAsync(mutex, 0, sizeof(int));
    summarize<<<32 * sms, THREADS>>>(values, n, total, mutex);
    unpack<<<1, 1>>>(total);
}
