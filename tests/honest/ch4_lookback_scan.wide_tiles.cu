/* An honest file: ch4_lookback_scan written faster: the same single pass, decoupled look-back, status
 * words and 32-tile walk, on tiles twice as large and without the trip through shared memory. A block's
 * life is mostly waits that do not grow with its tile (the counter's atomicAdd, the loads from HBM, a
 * round trip or two to the status words), so an SM moves about its resident tiles' bytes per block life.
 * The solution holds 4 blocks an SM (64 registers a thread) of 16 KiB: 64 KiB, which left HBM at 45% in
 * Nsight Compute and the solution at 69% of CUB. This file also holds 4 blocks of 256 threads (63
 * registers, no spills, sm_75 and sm_90), but each takes TILE = 8192 ints: 128 KiB an SM, twice the bytes
 * per wait, and half the status words, look-backs and barriers per byte (3 barriers a tile). If a block's
 * life stayed the same that is 2x the solution, past CUB (1.45x it); so >= 90% of CUB has room for the
 * longer loads of a bigger tile. (CUB's own tuning for sm_90 takes 3072 ints a tile, 128 threads of 24,
 * more blocks an SM: cccl's tuning_scan.cuh.) At 14 SMs the same count holds per SM: 2x the bytes per
 * wait of the solution, which reached 84% of CUB there.
 * The tile's rows: row r is the block's vectors r * 256 + t (int4, 4 KiB of consecutive ints, 512 bytes
 * a warp), so each thread issues its 8 loads of 16 bytes before it uses the first. A vector is scanned
 * in the thread, the 32 vectors of a warp's row by shuffles (the rules allow them here), and warp 0
 * scans the 64 sums of (row, warp), in the tile's order, 2 a lane, and looks back; each row's offset is
 * added in registers and the vectors are stored as they were loaded.
 * status has one word per 4096 elements (the statement): this file uses the first (n + TILE - 1) / TILE,
 * one per tile, and resets those. in and out come from cudaMalloc and a tile starts at a multiple of
 * TILE, so every vector is aligned; in the last tile a vector that reaches past n is read and written an
 * int at a time (0 past n, nothing written there). Int sums: the statement keeps them in range.
 *   sh labs/grade ch4_lookback_scan tests/honest/ch4_lookback_scan.wide_tiles.cu
 */

#define THREADS 256
#define ITEMS 32                   /* ints a thread scans: 8 int4 vectors */
#define ROWS (ITEMS / 4)           /* the tile's rows of THREADS vectors */
#define TILE (THREADS * ITEMS)     /* 8192: one status word per tile, half the runner's words used */
#define WARP 32
#define WARPS (THREADS / WARP)
#define PER_LANE (ROWS * WARPS / WARP)  /* (row, warp) sums a lane of warp 0 scans: 2 */
#define FULL_MASK 0xffffffffu
#if ROWS * WARPS % WARP != 0
#error "warp 0 scans the (row, warp) sums PER_LANE a lane"
#endif

/* A status word: the flag in the top two bits, the 32 bits of the int sum in the low ones (the solution's). */
enum { NOT_READY = 0, AGGREGATE = 1, PREFIX = 2 };

/* One 64-bit store: the flag and its value are seen together or not at all. */
__device__ void publish(unsigned long long *status, unsigned long long flag, int value)
{
    *(volatile unsigned long long *)status = flag << 62 | (unsigned)value;
}

/* Ints i to i + 3 of a vector that reaches past n (the last tile's): 0 where there is no element. */
__device__ int4 load_tail(const int *in, long long i, long long n)
{
    return make_int4(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0,
                     i + 3 < n ? in[i + 3] : 0);
}

__device__ void store_tail(int *out, long long i, long long n, int4 a)
{
    if (i < n)
        out[i] = a.x;
    if (i + 1 < n)
        out[i + 1] = a.y;
    if (i + 2 < n)
        out[i + 2] = a.z;
    if (i + 3 < n)
        out[i + 3] = a.w;
}

__global__ void __launch_bounds__(THREADS) scan(const int *in, int *out, long long n, unsigned long long *status,
                                                unsigned *counter)
{
    __shared__ int sums[ROWS * WARPS];  /* (row r, warp w) at r * WARPS + w: the tile's order */
    __shared__ unsigned s_tile;
    __shared__ int s_before;
    int t = threadIdx.x, lane = t % WARP, warp = t / WARP;

    if (t == 0)  /* the tile in the order blocks start: every tile before it is held by a running block */
        s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    long long tile = s_tile, first = tile * TILE;  /* the tile's ints: first + 4 * (r * THREADS + t) + 0..3 */
    int4 v[ROWS];
    if (first + TILE <= n) {  /* every tile but the last: 8 loads in flight, no test between them */
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            v[r] = __ldg((const int4 *)(in + first) + r * THREADS + t);
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            v[r] = load_tail(in, first + 4 * (r * THREADS + t), n);
    }

    /* Each vector scanned in the thread, then each row's 32 vectors of a warp by shuffles. */
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        v[r].y += v[r].x, v[r].z += v[r].y, v[r].w += v[r].z;
        int x = v[r].w;
        for (int d = 1; d < WARP; d *= 2) {
            int below = __shfl_up_sync(FULL_MASK, x, d);
            if (lane >= d)
                x += below;
        }
        int before = x - v[r].w;  /* the warp's ints of this row before my vector */
        v[r].x += before, v[r].y += before, v[r].z += before, v[r].w += before;
        if (lane == WARP - 1)
            sums[r * WARPS + warp] = x;
    }
    __syncthreads();  /* every (row, warp) sum is written */

    /* Warp 0: the 64 sums scanned in order (each replaced by what comes before it in the tile), then
     * the look-back, the solution's: lane l reads the status of tile j - l, 32 tiles at a time. */
    if (warp == 0) {
        int mine[PER_LANE], total = 0;
#pragma unroll
        for (int k = 0; k < PER_LANE; k++)
            mine[k] = sums[lane * PER_LANE + k], total += mine[k];
        int x = total;
        for (int d = 1; d < WARP; d *= 2) {
            int below = __shfl_up_sync(FULL_MASK, x, d);
            if (lane >= d)
                x += below;
        }
        int run = x - total;
#pragma unroll
        for (int k = 0; k < PER_LANE; k++)
            sums[lane * PER_LANE + k] = run, run += mine[k];
        int aggregate = __shfl_sync(FULL_MASK, x, WARP - 1);  /* the tile's own sum */
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
    __syncthreads();  /* s_before and the scanned sums are written */

    /* What comes before each row of my vectors, added in registers; out as vectors. */
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        int add = s_before + sums[r * WARPS + warp];
        v[r].x += add, v[r].y += add, v[r].z += add, v[r].w += add;
    }
    if (first + TILE <= n) {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            ((int4 *)(out + first))[r * THREADS + t] = v[r];
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
            store_tail(out, first + 4 * (r * THREADS + t), n, v[r]);
    }
}

/* The runner calls this with arrays on the GPU: status has (n + 4095) / 4096 words, of which the
 * (n + TILE - 1) / TILE that this file's tiles use are reset. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    cudaMemsetAsync(status, 0, tiles * sizeof(unsigned long long));  /* every tile NOT_READY */
    cudaMemsetAsync(counter, 0, sizeof(unsigned));                   /* tiles from 0 */
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
}
