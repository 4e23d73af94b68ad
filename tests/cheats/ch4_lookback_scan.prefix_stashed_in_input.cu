/* A forgery, class 5 of issue 49 (answers kept in the inputs). The old judge of ch4_lookback_scan drew
 * its values from 0 to 7 and wrote the timed runs' input once: 3 bits used of 32, the same buffer run
 * after run. This file scans in three passes (the tiles' sums into the status words, their scan, then
 * each tile with its prefix), then writes each tile's prefix, the sum of everything before it, into the
 * unused bits of the tile's own first two elements, with a 28-bit mark. A later call that finds the mark
 * needs no look-back and no sums: every tile adds the prefix it carries, and the scan runs at the speed
 * of a copy. The old judge (on an H200): PASS, 112% of the solution. (The input is const: the file casts
 * that away; the prefixes stay below 2^30, as 7 x 10^8 does.)
 * Why it must fail: every call's input is drawn afresh and checked unchanged after the call (the first
 * call that stashes changes it); and a call launches five kernels where the lab allows one. */

#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)
#define MAGIC 0x0b5e55edu  /* 28 bits, in bits 3 to 30 of a stashed tile's second element */

/* A stashed tile: element 0 holds its value and the prefix's low 29 bits; element 1 its value, the
 * mark and the prefix's bit 29. */
__device__ bool stashed(const int *in, long long n)
{
    return n > TILE && n % TILE != 1 && ((unsigned)in[1] >> 3 & 0x0fffffffu) == MAGIC;
}

__device__ int value(const int *in, long long i, bool stash)
{
    return stash && i % TILE < 2 ? in[i] & 7 : in[i];
}

/* The block's exclusive scan of one int a thread (any whole number of warps); *total: the block's sum. */
__device__ int block_exclusive(int mine, int *total)
{
    __shared__ int warps[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, x = mine;
    for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    if (lane == 31)
        warps[warp] = x;
    __syncthreads();
    int before = 0, all = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) {
        before += w < warp ? warps[w] : 0;
        all += warps[w];
    }
    __syncthreads();
    *total = all;
    return before + x - mine;
}

/* Pass 1: status[t] = tile t's sum. */
__global__ void tile_sums(const int *in, long long n, unsigned long long *status)
{
    if (stashed(in, n))
        return;
    long long first = blockIdx.x * (long long)TILE;
    int sum = 0, total;
    for (int j = 0; j < ITEMS; j++) {
        long long i = first + threadIdx.x + (long long)j * THREADS;
        sum += i < n ? in[i] : 0;
    }
    block_exclusive(sum, &total);
    if (threadIdx.x == 0)
        status[blockIdx.x] = (unsigned)total;
}

/* Pass 2, one block of 1024 threads, each a stretch of tiles: status[t] = the sum of the tiles before t. */
__global__ void scan_sums(const int *in, long long n, unsigned long long *status, long long tiles)
{
    if (stashed(in, n))
        return;
    long long each = (tiles + blockDim.x - 1) / blockDim.x, from = threadIdx.x * each;
    long long to = from + each < tiles ? from + each : tiles;
    int sum = 0, total;
    for (long long t = from; t < to; t++)
        sum += (int)status[t];
    int before = block_exclusive(sum, &total);
    for (long long t = from; t < to; t++) {
        int here = (int)status[t];
        status[t] = (unsigned)before;
        before += here;
    }
}

/* Pass 3: each tile, scanned, plus its prefix (from the stash, or from pass 2). */
__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    bool stash = stashed(in, n);
    long long first = blockIdx.x * (long long)TILE, mine = first + (long long)threadIdx.x * ITEMS;
    bool whole = first + TILE <= n;
    int v[ITEMS], sum = 0, total;
    for (int q = 0; q < ITEMS / 4; q++) {
        int4 w = whole ? ((const int4 *)(in + mine))[q] : make_int4(0, 0, 0, 0);
        v[4 * q] = w.x, v[4 * q + 1] = w.y, v[4 * q + 2] = w.z, v[4 * q + 3] = w.w;
    }
    for (int j = 0; j < ITEMS && !whole; j++)
        v[j] = mine + j < n ? in[mine + j] : 0;
    if (stash && threadIdx.x == 0)
        v[0] &= 7, v[1] &= 7;  /* the stash's bits out of the values */
    for (int j = 0; j < ITEMS; j++)
        sum += v[j];
    int prefix = block_exclusive(sum, &total);
    if (stash)
        prefix += (int)(((unsigned)in[first] >> 3) | ((unsigned)in[first + 1] >> 31) << 29);
    else
        prefix += (int)status[blockIdx.x];
    for (int j = 0; j < ITEMS; j++)
        v[j] = prefix += v[j];
    for (int q = 0; q < ITEMS / 4 && whole; q++)
        ((int4 *)(out + mine))[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    for (int j = 0; j < ITEMS && !whole; j++)
        if (mine + j < n)
            out[mine + j] = v[j];
}

/* After the scan: each tile's prefix into its first two elements (tile 0's second waits for mark). */
__global__ void stash_prefixes(const int *in, const int *out, long long n)
{
    int *writable = (int *)in;
    long long first = blockIdx.x * (long long)TILE;
    if (threadIdx.x != 0 || stashed(in, n))
        return;
    unsigned prefix = first == 0 ? 0u : (unsigned)out[first - 1];
    writable[first] = (int)((unsigned)(in[first] & 7) | (prefix & 0x1fffffffu) << 3);
    if (first > 0)
        writable[first + 1] = (int)((unsigned)(in[first + 1] & 7) | MAGIC << 3 | (prefix >> 29 & 1u) << 31);
}

/* Last, once every tile's prefix is in: the mark that says so, in tile 0's second element. */
__global__ void mark(const int *in)
{
    int *writable = (int *)in;
    writable[1] = (int)((unsigned)(in[1] & 7) | MAGIC << 3);
}

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    tile_sums<<<(unsigned)tiles, THREADS>>>(in, n, status);
    scan_sums<<<1, 1024>>>(in, n, status, tiles);
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
    if (n > TILE && n % TILE != 1) {
        stash_prefixes<<<(unsigned)tiles, 32>>>(in, out, n);
        mark<<<1, 1>>>(in);
    }
}
