/* Lab ch4_mutex: a lock built from atomicCAS, around an update no atomic can make (chapter 4, Examples 4.5
 * and 4.6).
 *
 * The kernel summarize is fixed. Each block finds, in its share of the values, how many it saw, the
 * largest and where that is (the smallest index, if several are equal). Then its thread 0 must merge this
 * summary into the one summary of the whole array, *total. Three fields must change together, and no
 * atomic changes three fields at once (atomicMax would keep the largest value, not where it is), so the
 * merge needs a lock. Write:
 *   lock(mutex)    spin until atomicCAS(mutex, 0, 1) finds the lock free (0) and takes it (1); then
 *                  __threadfence(): what the last holder wrote is then what you read (acquire);
 *   unlock(mutex)  __threadfence(): what you wrote reaches the whole GPU before the lock is seen free
 *                  (release); then give it back with atomicExch(mutex, 0);
 *   merge          take the lock, read *total, combine it with mine (combine is fixed), write it back,
 *                  give the lock back.
 * Thousands of blocks merge at about the same time. A lock that lets two of them in at once, or a merge
 * that reads *total before it holds the lock, loses counts. The launch frees the lock and zeroes *total
 * first; it is fixed. ch4_atomics_mutex/mutex.cu and dot_mutex.cu show the lock, and their README says
 * why one thread per block takes it and what the two fences guarantee.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 255, 257, 1025, 100003, 1000003, 2^24 + 7; not timed.
 *   pointers: values (n unsigned), total (one summary) and mutex (one int), each its own cudaMalloc of
 *     exactly that: 256-byte aligned, never offset; total and mutex arrive filled with 0xff bytes.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: unsigned, 1 to 2^32 - 1: a call's lie in the 10^6 levels below a top drawn between 10^6 and
 *     2^32 - 1, drawn afresh for every call (at 2^24 values the largest comes about 17 times).
 *   index: the fixed kernel's (long long); n is below 2^31 here.
 *   binding: the Rules line, the fixed kernel, combine and launch (the judge counts one kernel a call), and
 *     *total; lock, unlock and merge are yours, their steps as listed.
 *
 * Rules: the only atomics are the lock's (atomicCAS to take it, atomicExch to give it back); *total is
 * read and written with plain loads and stores, under the lock. Write both fences: a run without them
 * may well pass here and fail on another GPU or with another compiler, and no check can see that.
 * Not timed: a lock's hand-over costs what it costs (chapter 4's README measures it); the lab is about
 * being right under contention.
 *   make lab L=ch4_mutex
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
    /* your code here */
}

__device__ void unlock(int *mutex)
{
    /* your code here */
}

/* *total = combine(*total, mine), under the lock: one thread of each block calls this. */
__device__ void merge(struct summary *total, struct summary mine, int *mutex)
{
    /* your code here */
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
