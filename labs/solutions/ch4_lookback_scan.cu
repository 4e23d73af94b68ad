/* Lab ch4_lookback_scan, a solution: scan.cu's single pass, with a plainer tile. The block loads its
 * tile into shared memory in coalesced rows, each thread scans 16 consecutive elements there, the
 * block scans the threads' sums with shuffles, warp 0 looks back 32 tiles at a time, and the tile goes
 * back out in coalesced rows.
 *   make lab L=ch4_lookback_scan FILE=labs/solutions/ch4_lookback_scan.cu
 */

#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)
#define WARP 32
#define WARPS (THREADS / WARP)
#define FULL_MASK 0xffffffffu

/* A status word: the flag in the top two bits, the 32 bits of the int sum in the low ones. NOT_READY is
 * 0, so zeroing the words resets them. */
enum { NOT_READY = 0, AGGREGATE = 1, PREFIX = 2 };

/* One 64-bit store: the flag and its value are seen together or not at all. volatile: done every
 * time, and never kept in a cache of this SM. */
__device__ void publish(unsigned long long *status, unsigned long long flag, int value)
{
    *(volatile unsigned long long *)status = flag << 62 | (unsigned)value;
}

/* Element e of the tile in shared memory: one spare int after every 32, so that the 32 threads of a
 * warp reading their own 16 consecutive elements hit 32 different banks. */
__device__ int padded(int e)
{
    return e + e / WARP;
}

__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    __shared__ int s[TILE + TILE / WARP];
    __shared__ int warp_sums[WARPS];
    __shared__ unsigned s_tile;
    __shared__ int s_before;
    int t = threadIdx.x, lane = t % WARP, warp = t / WARP;

    /* The tile in the order blocks start: every tile before it is held by a running block. */
    if (t == 0)
        s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    long long tile = s_tile, first = tile * TILE;

    for (int j = 0; j < ITEMS; j++) {  /* coalesced: neighbouring threads, neighbouring elements */
        int e = j * THREADS + t;
        long long i = first + e;
        s[padded(e)] = i < n ? in[i] : 0;
    }
    __syncthreads();

    /* Each thread scans its 16 consecutive elements, in registers. */
    int v[ITEMS], sum = 0;
    for (int j = 0; j < ITEMS; j++) {
        sum += s[padded(t * ITEMS + j)];
        v[j] = sum;
    }
    /* The threads' sums, scanned: within each warp by shuffles, then the warps' sums by warp 0. */
    int x = sum;
    for (int d = 1; d < WARP; d *= 2) {
        int below = __shfl_up_sync(FULL_MASK, x, d);
        if (lane >= d)
            x += below;
    }
    if (lane == WARP - 1)
        warp_sums[warp] = x;
    __syncthreads();  /* every warp's sum is written */
    if (warp == 0) {
        int w = lane < WARPS ? warp_sums[lane] : 0;
        for (int d = 1; d < WARPS; d *= 2) {
            int below = __shfl_up_sync(FULL_MASK, w, d);
            if (lane >= d)
                w += below;
        }
        if (lane < WARPS)
            warp_sums[lane] = w;
    }
    __syncthreads();  /* the warps' sums are scanned */
    int before_me = (warp > 0 ? warp_sums[warp - 1] : 0) + x - sum;  /* the tile's elements before mine */
    int aggregate = warp_sums[WARPS - 1];                              /* the tile's own sum */

    /* The look-back, by warp 0: lane l reads the status of tile j - l, 32 tiles at a time. */
    if (warp == 0) {
        int before = 0;
        if (tile == 0) {
            if (lane == 0)
                publish(&status[0], PREFIX, aggregate);
        } else {
            if (lane == 0)
                publish(&status[tile], AGGREGATE, aggregate);  /* before waiting: the tiles after us need it */
            for (long long j = tile - 1;; j -= WARP) {
                long long p = j - lane;
                unsigned long long word;
                do  /* until none of the 32 is NOT_READY; before tile 0, a PREFIX of 0 */
                    word = p >= 0 ? *(volatile unsigned long long *)&status[p] : (unsigned long long)PREFIX << 62;
                while (__any_sync(FULL_MASK, word >> 62 == NOT_READY));
                /* The nearest PREFIX (the lowest lane with one) ends the walk: the lanes up to it add. */
                unsigned prefixes = __ballot_sync(FULL_MASK, word >> 62 == PREFIX);
                int last = prefixes ? __ffs(prefixes) - 1 : WARP - 1;
                int value = lane <= last ? (int)(unsigned)word : 0;
                for (int d = WARP / 2; d > 0; d /= 2)
                    value += __shfl_xor_sync(FULL_MASK, value, d);
                before += value;
                if (prefixes)
                    break;
            }
            if (lane == 0)
                publish(&status[tile], PREFIX, before + aggregate);
        }
        if (lane == 0)
            s_before = before;
    }
    __syncthreads();  /* s_before is written */

    /* Back through shared memory (each thread its own elements), then out in coalesced rows. */
    int add = s_before + before_me;
    for (int j = 0; j < ITEMS; j++)
        s[padded(t * ITEMS + j)] = v[j] + add;
    __syncthreads();  /* the whole tile is written */
    for (int j = 0; j < ITEMS; j++) {
        int e = j * THREADS + t;
        long long i = first + e;
        if (i < n)
            out[i] = s[padded(e)];
    }
}

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    cudaMemsetAsync(status, 0, tiles * sizeof(unsigned long long));  /* every tile NOT_READY */
    cudaMemsetAsync(counter, 0, sizeof(unsigned));                   /* tiles from 0 */
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
}
