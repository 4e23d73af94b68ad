/* Lab ch4_mutex, a solution: a spin lock on atomicCAS with its two fences, and the merge inside it
 * (chapter 4, Examples 4.5 and 4.6: ch4_atomics_mutex/mutex.cu).
 *
 * lock() spins until its atomicCAS finds the lock free and takes it; the fence after it makes what the
 * last holder wrote visible to this thread's reads. unlock() fences first, so that the merge's writes
 * reach the whole GPU before the lock is seen free. merge() reads *total only once it holds the lock and
 * writes it back before it lets go: between the two, no other block can read or write it.
 *   make lab L=ch4_mutex FILE=labs/solutions/ch4_mutex.cu
 */

#define THREADS 256

/* What a block found, then what the whole array holds. Every value is 1 or more: a summary of nothing
 * is all zeros. */
struct summary {
    unsigned long long count;  /* values seen */
    unsigned long long where;  /* the index of the largest (the smallest index, if several are equal) */
    unsigned max;              /* the largest value */
};

/* x and y together: the counts added, the larger maximum kept with its index (the smaller index on a tie). */
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
    while (atomicCAS(mutex, 0, 1) != 0) {
        /* spin: another block holds it */
    }
    __threadfence();  /* acquire: the last holder's writes are visible from here */
}

__device__ void unlock(int *mutex)
{
    __threadfence();  /* release: this holder's writes reach the whole GPU before the lock is seen free */
    atomicExch(mutex, 0);
}

/* *total = combine(*total, mine), under the lock: one thread of each block calls this. */
__device__ void merge(struct summary *total, struct summary mine, int *mutex)
{
    lock(mutex);
    struct summary t = *total;  /* read only once the lock is held */
    *total = combine(t, mine);  /* written before the lock is given back */
    unlock(mutex);
}

/* Given: each thread summarises its values (a grid-stride loop), the block combines its threads'
 * summaries as a tree in shared memory, and thread 0 merges the block's into *total. */
__global__ void summarize(const unsigned *values, long long n, struct summary *total, int *mutex)
{
    __shared__ struct summary s[THREADS];
    int tid = threadIdx.x;
    struct summary mine = {0, 0, 0};
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x) {
        mine.count++;
        if (values[i] > mine.max) {  /* i only grows: the first of equal values stays */
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
        merge(total, s[0], mutex);  /* one lock taker per block (mutex.cu says why) */
}

/* The runner calls this with the values, total and mutex on the GPU. */
void lab_summarize(const unsigned *values, long long n, struct summary *total, int *mutex, int sms)
{
    cudaMemsetAsync(total, 0, sizeof(struct summary));  /* nothing seen yet */
    cudaMemsetAsync(mutex, 0, sizeof(int));             /* the lock starts free: never assume memory is 0 */
    summarize<<<32 * sms, THREADS>>>(values, n, total, mutex);
}
