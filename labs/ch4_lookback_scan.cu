/* Lab ch4_lookback_scan: a scan of the whole array in one pass, with decoupled look-back (chapter 4,
 * going further: scan.cu's single pass).
 *
 * Write the kernel scan: out[i] = in[0] + in[1] + ... + in[i] for every i < n, in ints, in one kernel:
 * lab_scan launches exactly one kernel at each call (the judge counts them; the reset below is a memset,
 * not a kernel of yours).
 * The array is cut into tiles of TILE = 4096 elements (the last one shorter), one block of THREADS = 256
 * threads a tile. A block scans its tile (the course's solution: each thread scans 16 consecutive
 * elements, then the block scans the threads' sums with warp shuffles); what it still needs is the sum of
 * every element before its tile. It learns it from the other blocks through status[t], one 64-bit word
 * per tile t:
 *   NOT_READY   nothing published yet;
 *   AGGREGATE   the tile's own sum, published as soon as its block knows it;
 *   PREFIX      the sum of everything up to and including the tile, once the block knows that.
 * The look-back: walk back from tile t - 1, waiting while a status is NOT_READY, adding each AGGREGATE
 * and going on, until a PREFIX: add it and stop (tile 0 has nothing before it). Then publish PREFIX =
 * that sum + your tile's own, and add that sum to your tile's elements. Looking at 32 tiles at a time,
 * one a lane of warp 0, makes the walk short (scan.cu shows how).
 * Two things make it correct, both in chapter 4's README:
 * - Flag and value in one word, written by one 64-bit volatile store and read by one 64-bit volatile
 *   load: another SM sees the word whole or not at all. Written as two stores, the flag could be seen
 *   before the value, unless a __threadfence() sits between them (and another between the reader's two
 *   loads). The words' encoding is yours (the judge never reads them); the solution's puts the flag in
 *   the top 2 bits and the int's 32 bits in the low ones, with NOT_READY = 0.
 * - The tile from a counter, not from blockIdx.x: thread 0 takes t = atomicAdd(counter, 1). Blocks start
 *   in no promised order; a block that waits for a tile no running block holds may wait forever.
 * status (one word per tile) and counter arrive holding garbage: what an earlier call left, or anything.
 * lab_scan resets them before the kernel: every status NOT_READY, the counter 0 (a cudaMemsetAsync on
 * the default stream runs before a kernel launched after it on that stream).
 *
 * ch4_atomics_mutex/scan.cu's scan_single_pass is the model, with three differences: its tile is 128
 * threads of 32 elements (here 256 of 16: the same 4096), its counter is the 64-bit word after the last
 * status (here a 32-bit word of its own, counter), and its sums become 64-bit past 2^30 elements, 62
 * bits of the word (here ints, always: 32 bits).
 *
 * Contract:
 *   sizes: checked n = 1, 2, 31, 4095, 4096, 4097, 65537, 131071, 1000003 (two calls in a row), 10^8;
 *     timed n = 10^8.
 *   pointers: in and out (n ints), status ((n + 4095) / 4096 words) and counter (one unsigned), each its
 *     own cudaMalloc of exactly that: 256-byte aligned, never offset; status and counter arrive filled with
 *     0xff bytes.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: ints uniform in [-INT_MAX / n, INT_MAX / n], drawn afresh for every call: no sum leaves the int
 *     range.
 *   index: 32-bit will do: n is below 2^31 (at most 10^8 here); n itself is a long long.
 *   binding: the Rules line, one kernel a call (counted) and out; status gives one word per 4096 elements;
 *     the words' encoding, 256 threads of 16 elements and the 32-tile look-back are the course's solution.
 *
 * Rules: one kernel, no CUB, no cooperative groups (no grid sync); warp shuffles, votes and atomics are
 * allowed (unlike ch4_block_scan). Ints: the result is exact. n can be 1, a tile and one more, a prime,
 * 10^8; the values have either sign and are as large as n allows without a sum leaving the int range
 * (|in[i]| <= INT_MAX / n).
 * Target: 70% of the course's solution's speed; the limit is CUB's DeviceScan::InclusiveSum, timed on
 * the same GPU.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch4_lookback_scan
 */

#define THREADS 256
#define ITEMS 16                  /* consecutive elements a thread scans */
#define TILE (THREADS * ITEMS)   /* 4096: the runner's status array has one word per tile */

__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    /* your code here: every status NOT_READY and the counter 0, before the kernel */
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
}
