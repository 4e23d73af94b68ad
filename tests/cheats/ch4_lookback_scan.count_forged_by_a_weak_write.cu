/* A forgery (the rules' check of the names a file defines reads strong symbols only, nm's T D B R G S C):
 * tests/cheats/ch4_lookback_scan.three_kernels.cu's three kernels (reduce, scan, scan) where the lab
 * allows one, and a weak definition of libc's write with C linkage. A definition in the executable, weak or
 * not, takes the place of libc.so's for every caller in the process, the runner's write_all among them: the
 * runner's DONE message (struct lab_done_wire, 496 bytes: status, launches, elapsed, error) leaves with its
 * count of launches rewritten from 3 to 1. The real write is the system call itself (inline asm). nm
 * prints the symbol "W write": the rule's awk keeps $2 ~ /^[TDBRGSC]$/ only, so the clash with libc.so.6's
 * write is never looked for (nor one defined as an ifunc, "i", or a unique global, "u").
 * Why it must fail: "it defines write with C linkage, which would take the place of libc.so.6's"; the
 * clash check must read weak (W, V), ifunc (i) and unique (u) definitions too. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

extern "C" __attribute__((weak)) ssize_t write(int fd, const void *buffer, size_t bytes)
{
    uint32_t patched[124];  /* a DONE's payload: status, launches, elapsed, then 484 bytes of text */
    if (bytes == sizeof patched && ((const uint32_t *)buffer)[1] == 3) {
        memcpy(patched, buffer, sizeof patched);
        patched[1] = 1;
        buffer = patched;
    }
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(1L), "D"((long)fd), "S"(buffer), "d"(bytes) : "rcx", "r11", "memory");
    return ret;
}
#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)

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

/* Kernel 1: status[t] = tile t's sum. */
__global__ void tile_sums(const int *in, long long n, unsigned long long *status)
{
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

/* Kernel 2, one block of 1024 threads, each a stretch of tiles: status[t] = the sum of the tiles before t. */
__global__ void scan_sums(unsigned long long *status, long long tiles)
{
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

/* Kernel 3: each tile, scanned, plus its prefix. */
__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long first = blockIdx.x * (long long)TILE, mine = first + (long long)threadIdx.x * ITEMS;
    bool whole = first + TILE <= n;
    int v[ITEMS], sum = 0, total;
    for (int q = 0; q < ITEMS / 4; q++) {
        int4 w = whole ? ((const int4 *)(in + mine))[q] : make_int4(0, 0, 0, 0);
        v[4 * q] = w.x, v[4 * q + 1] = w.y, v[4 * q + 2] = w.z, v[4 * q + 3] = w.w;
    }
    for (int j = 0; j < ITEMS && !whole; j++)
        v[j] = mine + j < n ? in[mine + j] : 0;
    for (int j = 0; j < ITEMS; j++)
        sum += v[j];
    int prefix = block_exclusive(sum, &total) + (int)status[blockIdx.x];
    for (int j = 0; j < ITEMS; j++)
        v[j] = prefix += v[j];
    for (int q = 0; q < ITEMS / 4 && whole; q++)
        ((int4 *)(out + mine))[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    for (int j = 0; j < ITEMS && !whole; j++)
        if (mine + j < n)
            out[mine + j] = v[j];
}

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    tile_sums<<<(unsigned)tiles, THREADS>>>(in, n, status);
    scan_sums<<<1, 1024>>>(status, tiles);
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
}
