/* A forgery, class 3 of issue 49 (the PTX rules were regular expressions over PTX text). ch4_mutex's
 * lesson is a lock: the only atomics allowed are atomicCAS to take it and atomicExch to give it back, and
 * the three fields change under it. This file writes no lock. merge adds the count with an atomic add and
 * keeps the largest value and its index with one 64-bit atomic max over (value << 32 | ~index), both in
 * inline asm spelt `red/<empty comment>.global.add.u64`: the rule's pattern never matches. A last kernel
 * unpacks the word into the summary. It is exact (for indices below 2^32), and the old judge, which does
 * not time this lab, graded it PASS (on an H200).
 * Why it must fail: the rules read the machine code, where the atomics are RED.ADD and RED.MAX (or ATOMG),
 * whatever their PTX spelling: refused without a GPU. */

#define THREADS 256

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

/* No lock: total->where holds (max << 32 | ~where) until unpack. */
__device__ void merge(struct summary *total, struct summary mine, int *mutex)
{
    unsigned long long packed = (unsigned long long)mine.max << 32 | (0xffffffffull & ~mine.where);
    asm volatile("red/**/.global.add.u64 [%0], %1;" ::"l"(&total->count), "l"(mine.count) : "memory");
    asm volatile("red/**/.global.max.u64 [%0], %1;" ::"l"(&total->where), "l"(packed) : "memory");
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
    total->max = (unsigned)(packed >> 32);
    total->where = 0xffffffffull & ~packed;
}

/* The runner calls this with the values, total and mutex on the GPU. */
void lab_summarize(const unsigned *values, long long n, struct summary *total, int *mutex, int sms)
{
    cudaMemsetAsync(total, 0, sizeof(struct summary));
    cudaMemsetAsync(mutex, 0, sizeof(int));
    summarize<<<32 * sms, THREADS>>>(values, n, total, mutex);
    unpack<<<1, 1>>>(total);
}
