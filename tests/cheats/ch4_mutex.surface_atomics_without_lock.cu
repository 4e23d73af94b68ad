/* A forgery (the atomics' family in the rules lacks the surface reductions): no lock. The count is added
 * and the largest value kept with its index, packed as (value << 32 | ~index) in 64 bits, by two surface
 * reductions, sured.b.add.u64 and sured.b.max.u64, on a CUDA array of two 64-bit cells of the file's
 * own. ptxas writes them SURED.D.BA.1D.ADD and SURED.D.BA.1D.MAX: an atomic read-modify-write in memory
 * like RED.ADD and RED.MAX, but no opcode of the rule's family ^(ATOM[GS]?|REDG?|REDAS|UBLKRED|UTMAREDG).
 * A last kernel reads the two cells back (suld) and writes the summary. Exact for indices below 2^32.
 * Why it must fail: "the only atomics are the lock's" (rules.txt); SURED (and SUATOM) are atomics. */

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

__device__ void lock(int *mutex) {}

__device__ void unlock(int *mutex) {}

/* Cell 0 (bytes 0-7) the count, cell 1 (bytes 8-15) the packed maximum. */
__device__ void merge(struct summary *total, struct summary mine, int *mutex, cudaSurfaceObject_t cells)
{
    unsigned long long packed = (unsigned long long)mine.max << 32 | (0xffffffffull & ~mine.where);
    asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" ::"l"(cells), "r"(0), "l"(mine.count) : "memory");
    asm volatile("sured.b.max.1d.u64.trap [%0, {%1}], %2;" ::"l"(cells), "r"(8), "l"(packed) : "memory");
}

__global__ void summarize(const unsigned *values, long long n, struct summary *total, int *mutex,
                          cudaSurfaceObject_t cells)
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
        merge(total, s[0], mutex, cells);
}

__global__ void clear(cudaSurfaceObject_t cells)
{
    surf1Dwrite(make_uint2(0, 0), cells, 0);
    surf1Dwrite(make_uint2(0, 0), cells, 8);
}

__global__ void unpack(struct summary *total, cudaSurfaceObject_t cells)
{
    uint2 count = surf1Dread<uint2>(cells, 0), packed = surf1Dread<uint2>(cells, 8);
    total->count = (unsigned long long)count.y << 32 | count.x;
    total->max = packed.y;
    total->where = ~packed.x;
}

void lab_summarize(const unsigned *values, long long n, struct summary *total, int *mutex, int sms)
{
    static cudaSurfaceObject_t cells;
    if (!cells) {
        cudaChannelFormatDesc two_words = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
        cudaArray_t array;
        cudaMallocArray(&array, &two_words, 2, 0, cudaArraySurfaceLoadStore);
        cudaResourceDesc resource = {};
        resource.resType = cudaResourceTypeArray;
        resource.res.array.array = array;
        cudaCreateSurfaceObject(&cells, &resource);
    }
    cudaMemsetAsync(mutex, 0, sizeof(int));
    clear<<<1, 1>>>(cells);
    summarize<<<32 * sms, THREADS>>>(values, n, total, mutex, cells);
    unpack<<<1, 1>>>(total, cells);
}
