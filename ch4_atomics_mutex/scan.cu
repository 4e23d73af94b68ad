/* scan.cu: going further, prefix sums: out[i] = in[0] + ... + in[i], the reduction's sibling, where blocks must wait
 * for each other (tile b needs the sum of every tile before it). The textbook's three kernels (scan each tile, scan the
 * tiles' sums, add them back) read and write the data twice; the single pass with decoupled look-back does it once,
 * each block waiting on flags its predecessors publish. CUB's DeviceScan::InclusiveSum is the reference.
 *   make ch4 && ./ch4_atomics_mutex/scan    (sizes 1e4 up to 2^31 + 11; output/ch4/scan.csv; --max 1e8 -r 5)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* A block of 128 threads scans a tile of 4096 elements, 32 consecutive ones per thread. With ITEMS 8, 16
 * and 32 the single pass ran at 61%, 79% and 95% of CUB at n = 1e9 on an H200 (figures/data/ch4/scan_items/):
 * the more loads each thread has in flight, the better it hides the memory's latency. */
enum { THREADS = 128, ITEMS = 32, TILE = THREADS * ITEMS, WARP = 32, WARPS = THREADS / WARP };
/* The elements are 0, 1 or 2, so a prefix sum of n of them is at most 2n: 32-bit sums hold it up to
 * n = INT_MAX / 2 = 1,073,741,823 elements, and above that the sums are 64-bit (long long). */
enum { MAX_VALUE = 2 };
#define FULL_MASK 0xffffffffu

/* ==== Kernels shared by the two scans ==== */

/* Element i of the input: a multiplicative hash of i, so that the CPU can recompute any element. */
__host__ __device__ inline int element(long long i)
{
    unsigned long long x = ((unsigned long long)i * 2 + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (int)((x >> 40) % (MAX_VALUE + 1));
}

__global__ void fill_input(int *in, long long n)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        in[i] = element(i);
}

/* Global memory is read and written in whole lines only if the 32 lanes of a warp touch neighbouring
 * addresses at once, but a thread's sequential scan needs ITEMS consecutive elements. So each warp's
 * 32 x ITEMS elements pass through shared memory: in "striped" (one load instruction of the warp reads
 * 512 neighbouring bytes, 16 a lane), out "blocked" (lane l takes elements 32 l to 32 l + 31), and the
 * other way for the results. One padding element after every 128 bytes puts the 32 lanes of a blocked
 * access in 32 different banks. */
enum { WARP_ELEMENTS = WARP * ITEMS };
template <typename T>
__device__ inline int padded(int x)
{
    return x + x / (128 / (int)sizeof(T));
}

/* The warp's elements from warp_first, zeros past n, into v (blocked). A whole warp's worth inside the
 * array is read 16 bytes a lane at a time (V elements; its start is 16-byte aligned); the end of the
 * array one element a lane at a time. */
template <typename T>
__device__ void load_tile(const T *p, long long n, long long warp_first, T *stage, T (&v)[ITEMS])
{
    constexpr int V = 16 / sizeof(T);
    int lane = threadIdx.x % WARP;
    if (warp_first + WARP_ELEMENTS <= n) {
#pragma unroll
        for (int k = 0; k < ITEMS; k += V) {
            int e = k * WARP + lane * V;
            __align__(16) T t[V];
            *(uint4 *)t = *(const uint4 *)&p[warp_first + e];
#pragma unroll
            for (int c = 0; c < V; c++)
                stage[padded<T>(e + c)] = t[c];
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            long long i = warp_first + k * WARP + lane;
            stage[padded<T>(k * WARP + lane)] = i < n ? p[i] : 0;
        }
    }
    __syncwarp();  /* the lanes read what other lanes wrote */
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        v[k] = stage[padded<T>(lane * ITEMS + k)];
}

/* v (blocked) to the warp's elements from warp_first, up to n: the same way back. */
template <typename T>
__device__ void store_tile(T *p, long long n, long long warp_first, T *stage, const T (&v)[ITEMS])
{
    constexpr int V = 16 / sizeof(T);
    int lane = threadIdx.x % WARP;
    __syncwarp();  /* every lane has finished reading stage */
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        stage[padded<T>(lane * ITEMS + k)] = v[k];
    __syncwarp();
    if (warp_first + WARP_ELEMENTS <= n) {
#pragma unroll
        for (int k = 0; k < ITEMS; k += V) {
            int e = k * WARP + lane * V;
            __align__(16) T t[V];
#pragma unroll
            for (int c = 0; c < V; c++)
                t[c] = stage[padded<T>(e + c)];
            *(uint4 *)&p[warp_first + e] = *(const uint4 *)t;
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            long long i = warp_first + k * WARP + lane;
            if (i < n)
                p[i] = stage[padded<T>(k * WARP + lane)];
        }
    }
}

/* The exclusive prefix of `v` over the block's threads (thread 0 gets 0), and the block's total: a scan
 * within each warp by shuffles (step d: add the value d lanes below), the warps' totals scanned the same
 * way by warp 0 through shared memory. Every thread of the block must call it. */
template <typename Sum>
__device__ Sum block_exclusive_scan(Sum v, Sum *block_total)
{
    __shared__ Sum warp_totals[WARPS];
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    Sum x = v;
#pragma unroll
    for (int d = 1; d < WARP; d *= 2) {
        Sum below = __shfl_up_sync(FULL_MASK, x, d);
        if (lane >= d)
            x += below;
    }
    if (lane == WARP - 1)
        warp_totals[warp] = x;
    __syncthreads();  /* every warp's total is written */
    if (warp == 0) {
        Sum t = lane < WARPS ? warp_totals[lane] : 0;
#pragma unroll
        for (int d = 1; d < WARPS; d *= 2) {
            Sum below = __shfl_up_sync(FULL_MASK, t, d);
            if (lane >= d)
                t += below;
        }
        if (lane < WARPS)
            warp_totals[lane] = t;
    }
    __syncthreads();  /* the warps' totals are scanned */
    *block_total = warp_totals[WARPS - 1];
    return (warp > 0 ? warp_totals[warp - 1] : 0) + x - v;
}

/* Scans the thread's ITEMS values in place and then the block's threads: on return v holds the
 * inclusive scan of the tile, without what comes before the tile; *tile_total is the tile's sum. */
template <typename Sum>
__device__ void tile_scan(Sum (&v)[ITEMS], Sum *tile_total)
{
#pragma unroll
    for (int k = 1; k < ITEMS; k++)
        v[k] += v[k - 1];
    Sum before = block_exclusive_scan(v[ITEMS - 1], tile_total);
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        v[k] += before;
}

/* ==== 1. Three kernels: scan the tiles, scan their sums, add them back ==== */

/* Kernel 1 (and, on the tiles' sums, kernel 2): block b scans tile b into out and writes its sum to
 * tile_sums[b]. `in` may be `out`: each warp reads its elements before it writes them. */
template <typename In, typename Sum>
__global__ void __launch_bounds__(THREADS) scan_tiles(const In *in, Sum *out, long long n, Sum *tile_sums)
{
    __shared__ Sum stage[WARPS][WARP_ELEMENTS + WARP_ELEMENTS / (128 / sizeof(Sum))];  /* holds In too */
    long long warp_first = (long long)blockIdx.x * TILE + threadIdx.x / WARP * WARP_ELEMENTS;
    In raw[ITEMS];
    load_tile(in, n, warp_first, (In *)stage[threadIdx.x / WARP], raw);
    Sum v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        v[k] = raw[k];
    Sum total;
    tile_scan(v, &total);
    store_tile(out, n, warp_first, stage[threadIdx.x / WARP], v);
    if (tile_sums && threadIdx.x == 0)
        tile_sums[blockIdx.x] = total;
}

/* Kernel 3: adds the sum of every tile before tile b (the scanned tile sums) to tile b's elements. */
template <typename Sum>
__global__ void __launch_bounds__(THREADS) add_tile_offsets(Sum *out, long long n, const Sum *scanned_tile_sums)
{
    long long tile = blockIdx.x + 1;  /* tile 0 has nothing before it */
    Sum offset = scanned_tile_sums[tile - 1];
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {  /* element by element, so the order does not matter: coalesced */
        long long i = tile * TILE + k * THREADS + threadIdx.x;
        if (i < n)
            out[i] += offset;
    }
}

/* ==== 2. One pass: decoupled look-back ==== */

/* Each tile has a status word that its block publishes for the blocks after it: NOT_READY, then its own
 * sum (AGGREGATE) as soon as it is known, then the sum of everything up to and including it (PREFIX)
 * once its look-back is done. Flag and value share one 64-bit word, the flag in the top two bits:
 * written as two words, another SM could see the new flag before the new value (stores to different
 * addresses may become visible in either order), so the writer would need a __threadfence() between
 * value and flag and the reader another between flag and value. One aligned 64-bit store is seen
 * whole or not at all. The sums here are below 2^62, so 62 bits of value are enough. */
enum { NOT_READY = 0, AGGREGATE = 1, PREFIX = 2 };
#define VALUE_MASK ((1ull << 62) - 1)

/* volatile: the compiler must do every one of these loads and stores (a spin loop reads the word again
 * each time) and may not cache it in L1; PTX treats a volatile access as a relaxed one at system scope. */
__device__ inline void publish(unsigned long long *status, int flag, long long value)
{
    *(volatile unsigned long long *)status = (unsigned long long)flag << 62 | ((unsigned long long)value & VALUE_MASK);
}

__device__ inline unsigned long long read_status(const unsigned long long *status)
{
    return *(const volatile unsigned long long *)status;
}

template <typename Sum>
__device__ Sum warp_total(Sum v)
{
#pragma unroll
    for (int d = WARP / 2; d > 0; d /= 2)
        v += __shfl_xor_sync(FULL_MASK, v, d);
    return v;
}

/* One block per tile. statuses[tiles] is the tile counter, and all of it starts at 0 (NOT_READY). */
template <typename Sum>
__global__ void __launch_bounds__(THREADS) scan_single_pass(const int *in, Sum *out, long long n,
                                                            unsigned long long *statuses)
{
    /* The tile comes from a counter, not from blockIdx.x. The GPU may start block 900 before block 10
     * (the order blocks start in is not specified); if block 900 took tile 900 and waited for tile 10
     * while blocks like it filled every SM, block 10 would never start: a deadlock. A tile taken from the
     * counter has every earlier tile already taken by a block that is running, and that block publishes
     * its AGGREGATE before it waits for anything, so every wait ends. */
    __shared__ Sum stage[WARPS][WARP_ELEMENTS + WARP_ELEMENTS / (128 / sizeof(Sum))];
    __shared__ unsigned long long s_tile;
    __shared__ Sum s_before;
    if (threadIdx.x == 0)
        s_tile = atomicAdd(&statuses[ceil_div(n, TILE)], 1ull);
    __syncthreads();
    long long tile = (long long)s_tile, warp_first = tile * TILE + threadIdx.x / WARP * WARP_ELEMENTS;

    int raw[ITEMS];
    load_tile(in, n, warp_first, (int *)stage[threadIdx.x / WARP], raw);
    Sum v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        v[k] = raw[k];
    Sum aggregate;
    tile_scan(v, &aggregate);

    /* The look-back, by warp 0: lane l reads the status of tile (j - l), 32 predecessors at a time. */
    if (threadIdx.x < WARP) {
        int lane = threadIdx.x;
        Sum before = 0;
        if (tile == 0) {
            if (lane == 0)
                publish(&statuses[0], PREFIX, aggregate);
        } else {
            /* the blocks after us need not wait for our look-back */
            if (lane == 0)
                publish(&statuses[tile], AGGREGATE, aggregate);
            for (long long j = tile - 1;; j -= WARP) {
                long long p = j - lane;
                unsigned long long s;
                do  /* wait until none of the 32 is NOT_READY; a tile before the first counts as PREFIX 0 */
                    s = p >= 0 ? read_status(&statuses[p]) : (unsigned long long)PREFIX << 62;
                while (__any_sync(FULL_MASK, s >> 62 == NOT_READY));
                /* The nearest PREFIX (the lowest lane that has one) ends the walk: add the values of the
                 * lanes up to it, AGGREGATEs and that PREFIX. With none, all 32 AGGREGATEs, and on. */
                unsigned prefixes = __ballot_sync(FULL_MASK, s >> 62 == PREFIX);
                int last = prefixes ? __ffs(prefixes) - 1 : WARP - 1;
                before += warp_total(lane <= last ? (Sum)(s & VALUE_MASK) : (Sum)0);
                if (prefixes)
                    break;
            }
            if (lane == 0)
                publish(&statuses[tile], PREFIX, before + aggregate);
        }
        if (lane == 0)
            s_before = before;
    }
    __syncthreads();  /* s_before is written */
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        v[k] += s_before;
    store_tile(out, n, warp_first, stage[threadIdx.x / WARP], v);
}

/* ==== Checks and the L2 flush ==== */

/* *first = the smallest i with a[i] != b[i] (it starts at LLONG_MAX). */
template <typename Sum>
__global__ void first_difference(const Sum *a, const Sum *b, long long n, unsigned long long *first)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        if (a[i] != b[i])
            atomicMin(first, (unsigned long long)i);
}

/* ladder.cu's, copied (tests/copies.t keeps them equal): reads a buffer twice the L2's size, so that the next
 * kernel finds none of its data in the cache (reads: a memset's dirty lines would be written back in the timing). */
__global__ void read_through(const int4 *buffer, long long count, int *sink)
{
    int4 acc = make_int4(0, 0, 0, 0);
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < count;
         i += (long long)blockDim.x * gridDim.x)
        acc.x ^= buffer[i].x ^ buffer[i].y ^ buffer[i].z ^ buffer[i].w;
    if (acc.x == 0x7fffffff)  /* practically never true, but the compiler cannot drop the loads */
        *sink = acc.x;
}

/* ==== Host helpers ==== */

enum variant { THREE_KERNELS, SINGLE_PASS, LIBRARY, VARIANTS };
static const char *names[VARIANTS] = {"three_kernels", "single_pass", "cub"};

/* CUB before CCCL 2.7 takes `int num_items`: a larger n would wrap. */
static const int cub_takes_64bit_sizes = CUB_VERSION >= 200700;

/* Widens each int to 64 bits as CUB reads it, so that CUB sums in 64 bits (it sums in the input type). */
struct widen {
    __host__ __device__ long long operator()(int x) const { return x; }
};

/* CUB with 32-bit offsets where n allows (as it is benchmarked), 64-bit ones above. With temp NULL it
 * only says how much temporary memory it needs, in bytes. */
template <typename In, typename Sum>
static void cub_scan(void *temp, size_t &bytes, In in, Sum *out, long long n)
{
    if (n <= INT_MAX)
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, (int)n));
    else
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n));
}

struct buffers {
    int *in;
    void *out, *reference;        /* the scan, and CUB's for the checks: n sums of 4 or 8 bytes */
    void *tile_sums;              /* the three-kernel scan's sums, all levels */
    unsigned long long *statuses; /* the single-pass scan's status words and tile counter */
    void *cub_temp;
    size_t cub_temp_bytes;
    unsigned long long *first;    /* first_difference's answer */
};

/* Kernels 1 to 3; kernel 2 is this function again on the tiles' sums, until they fit one tile. */
template <typename In, typename Sum>
static void three_kernels(const In *in, Sum *out, long long n, Sum *tile_sums)
{
    long long tiles = ceil_div(n, TILE);
    scan_tiles<In, Sum><<<(unsigned)tiles, THREADS>>>(in, out, n, tiles > 1 ? tile_sums : NULL);
    CHECK_LAUNCH();
    if (tiles == 1)
        return;
    three_kernels<Sum, Sum>(tile_sums, tile_sums, tiles, tile_sums + ceil_div(tiles, 4) * 4);  /* 16-byte aligned */
    add_tile_offsets<Sum><<<(unsigned)(tiles - 1), THREADS>>>(out, n, tile_sums);
    CHECK_LAUNCH();
}

/* Queues one scan of the first n elements on stream 0, summed in Sum. */
template <typename Sum>
static void launch(enum variant v, long long n, struct buffers *b)
{
    Sum *out = (Sum *)b->out;
    long long tiles = ceil_div(n, TILE);
    if (v == THREE_KERNELS) {
        three_kernels<int, Sum>(b->in, out, n, (Sum *)b->tile_sums);
    } else if (v == SINGLE_PASS) {
        CUDA_CHECK(cudaMemsetAsync(b->statuses, 0, (tiles + 1) * sizeof(unsigned long long), 0));
        scan_single_pass<Sum><<<(unsigned)tiles, THREADS>>>(b->in, out, n, b->statuses);
        CHECK_LAUNCH();
    } else if (sizeof(Sum) == 4) {
        cub_scan(b->cub_temp, b->cub_temp_bytes, b->in, (int *)out, n);
    } else {
        cub_scan(b->cub_temp, b->cub_temp_bytes, thrust::make_transform_iterator(b->in, widen()), (long long *)out, n);
    }
}

/* Compares the scan in b->out with the CPU's, element by element, copying 16M sums at a time; returns the
 * first wrong index, or -1. The CPU recomputes the input from element(i). */
template <typename Sum>
static long long compare_with_cpu(const struct buffers *b, long long n, Sum *chunk, long long chunk_size)
{
    long long sum = 0;
    for (long long start = 0; start < n; start += chunk_size) {
        long long count = n - start < chunk_size ? n - start : chunk_size;
        CUDA_CHECK(cudaMemcpy(chunk, (const Sum *)b->out + start, count * sizeof(Sum), cudaMemcpyDeviceToHost));
        for (long long i = 0; i < count; i++) {
            sum += element(start + i);
            if (chunk[i] != (Sum)sum)
                return start + i;
        }
    }
    return -1;
}

/* The first index where b->out and b->reference differ on the GPU, or -1. */
template <typename Sum>
static long long compare_with_reference(const struct buffers *b, long long n, int blocks)
{
    unsigned long long first = ULLONG_MAX;
    CUDA_CHECK(cudaMemcpy(b->first, &first, sizeof first, cudaMemcpyHostToDevice));
    first_difference<Sum><<<blocks, 256>>>((const Sum *)b->out, (const Sum *)b->reference, n, b->first);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&first, b->first, sizeof first, cudaMemcpyDeviceToHost));
    return first == ULLONG_MAX ? -1 : (long long)first;
}

/* Checks every variant at n, exactly. CUB's result is compared with the CPU and kept as the reference;
 * ours are compared with it on the GPU (where CUB cannot take n, with the CPU). Returns the failures. */
template <typename Sum>
static int check_size(long long n, struct buffers *b, Sum *chunk, long long chunk_size, int blocks)
{
    int failures = 0, have_reference = cub_takes_64bit_sizes || n <= INT_MAX;
    size_t bytes = n * sizeof(Sum);
    for (int k = 0; k < VARIANTS; k++) {
        enum variant v = (enum variant)((k + LIBRARY) % VARIANTS);  /* CUB first */
        if (v == LIBRARY && !have_reference)
            continue;
        CUDA_CHECK(cudaMemset(b->out, 0xff, bytes));  /* no stale result can pass */
        launch<Sum>(v, n, b);
        long long wrong = v == LIBRARY || !have_reference ? compare_with_cpu(b, n, chunk, chunk_size)
                                                          : compare_with_reference<Sum>(b, n, blocks);
        if (wrong >= 0)
            failures += check(0, "%s at n = %lld (%d-bit sums): first wrong element at %lld", names[v], n,
                              (int)(8 * sizeof(Sum)), wrong);
        if (v == LIBRARY)
            CUDA_CHECK(cudaMemcpy(b->reference, b->out, bytes, cudaMemcpyDeviceToDevice));
    }
    return failures;
}

/* Times variant v at n: warm-up, then reps runs, each after an L2 flush, kernel time by events. */
template <typename Sum>
static struct stats time_variant(enum variant v, long long n, struct buffers *b, const int4 *flush,
                                 long long flush_count, int *sink, int blocks, double *ms, int reps)
{
    struct timed_runs runs = timed_runs(ms, reps, 0);
    while (timed_run(&runs)) {
        launch<Sum>(v, n, b);
        timed_run_end(&runs);
        read_through<<<blocks, 256>>>(flush, flush_count, sink);  /* outside the window: the next run starts cold */
        CHECK_LAUNCH();
    }
    return stats_of(ms, reps);
}

/* 32-bit sums while 2n fits an int, else 64-bit. */
static int sum_bytes(long long n)
{
    return n <= INT_MAX / MAX_VALUE ? 4 : 8;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long max_n = 2147483659LL;  /* 2^31 + 11: past every 32-bit index */
    int reps = 21;
    const char *csv_path = "output/ch4/scan.csv";
    struct cli_option options[] = {
        {"--max", CLI_SIZE, &max_n, 1, 1.6e10, "largest size (default 2^31 + 11; less if memory is short)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs per point (default 21)"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the sweep to FILE (default output/ch4/scan.csv)"},
    };
    int device = cli_parse(argc, argv, "Going further: inclusive scans, three kernels against one pass against CUB.",
                           options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);

    /* Per element: the input (4 bytes), the scan and CUB's reference (8 bytes each at the top sizes),
     * the three-kernel scan's tile sums (8 / 4096 a level), and a flush buffer twice the L2. */
    long long flush_bytes = 2 * (long long)dev.l2_bytes;
    max_n = size_to_fit(&dev, "--max", max_n, 1, 4 + 2 * 8 + 1.0 / 256, 0, flush_bytes + 64.0 * 1024 * 1024);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);

    struct buffers b;
    size_t sum_size = sum_bytes(max_n),
           tile_sum_count = ceil_div(max_n, TILE) + ceil_div(max_n, (long long)TILE * TILE) + 64;
    CUDA_CHECK(cudaMalloc(&b.in, max_n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b.out, max_n * sum_size));
    CUDA_CHECK(cudaMalloc(&b.reference, max_n * sum_size));
    CUDA_CHECK(cudaMalloc(&b.tile_sums, tile_sum_count * sum_size));
    CUDA_CHECK(cudaMalloc(&b.statuses, (ceil_div(max_n, TILE) + 1) * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&b.first, sizeof(unsigned long long)));
    /* CUB's temporary memory grows with n: ask for the largest n of each kind it will run. */
    b.cub_temp_bytes = 0;
    long long cub_sizes[2] = {max_n < INT_MAX ? max_n : INT_MAX, cub_takes_64bit_sizes ? max_n : 0};
    for (int k = 0; k < 2; k++) {
        size_t temp32 = 0, temp64 = 0;
        if (cub_sizes[k] == 0)
            continue;
        cub_scan(NULL, temp32, b.in, (int *)b.out, cub_sizes[k]);
        cub_scan(NULL, temp64, thrust::make_transform_iterator(b.in, widen()), (long long *)b.out, cub_sizes[k]);
        size_t need = temp32 > temp64 ? temp32 : temp64;
        b.cub_temp_bytes = need > b.cub_temp_bytes ? need : b.cub_temp_bytes;
    }
    CUDA_CHECK(cudaMalloc(&b.cub_temp, b.cub_temp_bytes));
    int4 *flush;
    int *sink;
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
    CUDA_CHECK(cudaMemset(flush, 0, flush_bytes));
    int blocks = 4 * dev.threads_per_sm / 256 * dev.sms;
    fill_input<<<blocks, 256>>>(b.in, max_n);
    CHECK_LAUNCH();

    /* Sizes 1, 2, 5 per decade from 1e4, and max_n; for the checks also tile edges, primes and 2^31 - 1. */
    long long sizes[64], odd[] = {1, 2, 31, TILE - 1, TILE, TILE + 1, 1000003, 67108859, INT_MAX};
    int count = 0, odd_count = COUNT_OF(odd);
    for (long long decade = 10000; decade <= max_n && count < 60; decade *= 10)
        for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3))
            if (m * decade <= max_n)
                sizes[count++] = m * decade;
    if (count == 0 || sizes[count - 1] != max_n)
        sizes[count++] = max_n;

    /* Correct first: every variant at every size, exact. About 2 ns a checked element on the CPU. */
    long long chunk_size = 1 << 24, checked = 0;
    void *chunk = host_alloc(chunk_size * 8);
    for (int k = 0; k < odd_count + count; k++)
        checked += k < odd_count ? (odd[k] <= max_n ? odd[k] : 0) : sizes[k - odd_count];
    say_how_long("the checks", checked * 2e-9, "--max 1e8");
    int failures = 0;
    for (int k = 0; k < odd_count + count; k++) {
        long long n = k < odd_count ? odd[k] : sizes[k - odd_count];
        if (n > max_n)
            continue;
        failures += sum_bytes(n) == 4 ? check_size<int>(n, &b, (int *)chunk, chunk_size, blocks)
                                      : check_size<long long>(n, &b, (long long *)chunk, chunk_size, blocks);
    }
    if (check(failures == 0, "every scan equals the CPU's at %d sizes from 1 to %lld (64-bit sums above n = %d)",
              odd_count + count, max_n, INT_MAX / MAX_VALUE))
        return 1;

    /* The bytes a scan must move: read each element, write each sum. */
    FILE *csv = csv_open(csv_path, "variant,n,sum_bits,median_ms,mean_ms,std_ms,gbs");
    printf("\nGB/s = (4 + sum bytes) x n / time (kernel time, cold L2, median of %d); device copy %.0f GB/s\n", reps,
           copy_gbs);
    printf("%12s %5s %14s %12s %10s\n", "n", "sums", "three_kernels", "single_pass", "cub");
    double *ms = (double *)host_alloc(reps * sizeof(double)), at[VARIANTS] = {0};
    long long at_n = 0;  /* the largest size up to 1e9: the bar's */
    for (int k = 0; k < count; k++) {
        long long n = sizes[k];
        int bytes = sum_bytes(n);
        printf("%12lld %5d", n, 8 * bytes);
        for (int v = 0; v < VARIANTS; v++) {
            if (v == LIBRARY && !(cub_takes_64bit_sizes || n <= INT_MAX)) {
                printf(" %10s", "-");
                continue;
            }
            struct stats s = bytes == 4 ? time_variant<int>((enum variant)v, n, &b, flush, flush_bytes / 16, sink,
                                                             blocks, ms, reps)
                                        : time_variant<long long>((enum variant)v, n, &b, flush, flush_bytes / 16,
                                                                   sink, blocks, ms, reps);
            double gbs = (4.0 + bytes) * n / (s.median * 1e-3) / 1e9;
            csv_row(csv, "%s,%lld,%d,%.6f,%.6f,%.6f,%.1f", names[v], n, 8 * bytes, s.median, s.mean, s.std, gbs);
            printf(" %*.0f", v == THREE_KERNELS ? 14 : v == SINGLE_PASS ? 12 : 10, gbs);
            if (n <= 1000000000 && n >= at_n) {
                at[v] = gbs;
                at_n = n;
            }
        }
        csv_row(csv, "copy,%lld,%d,,,,%.1f", n, 8 * bytes, copy_gbs);
        printf("\n");
    }
    csv_close(csv);
    printf("\nat n = %lld: single_pass = %.0f%% of CUB, three_kernels = %.0f%% of CUB; of the copy bandwidth: "
           "single_pass %.0f%%, three_kernels %.0f%%, CUB %.0f%%\n",
           at_n, 100 * at[SINGLE_PASS] / at[LIBRARY], 100 * at[THREE_KERNELS] / at[LIBRARY],
           100 * at[SINGLE_PASS] / copy_gbs, 100 * at[THREE_KERNELS] / copy_gbs, 100 * at[LIBRARY] / copy_gbs);
    printf("(the three kernels move each element twice: read it, write its tile's scan, read and write it again)\n");
    printf("wrote %s\n", csv_path);
    CUDA_CHECK(cudaFree(b.in));
    CUDA_CHECK(cudaFree(b.out));
    CUDA_CHECK(cudaFree(b.reference));
    CUDA_CHECK(cudaFree(b.tile_sums));
    CUDA_CHECK(cudaFree(b.statuses));
    CUDA_CHECK(cudaFree(b.first));
    CUDA_CHECK(cudaFree(b.cub_temp));
    CUDA_CHECK(cudaFree(flush));
    CUDA_CHECK(cudaFree(sink));
    free(chunk), free(ms);
    return exit_status(0);
}
