/* Lab ch2_cooperative_groups: ch2_warp_sum's block sum written with cooperative groups (chapter 2, going
 * further: warp_shuffle.cu).
 *
 * Cooperative groups (<cooperative_groups.h>, namespace cooperative_groups, cg below) make the threads that
 * work together an object that a function names and is passed. cg::this_thread_block() is the block;
 * cg::tiled_partition<32>(block) cuts it into tiles of 32 threads, its warps, a tile's size a template
 * argument that the compiler knows. A tile's members say what the warp intrinsics said with a mask:
 * tile.shfl_down(v, offset) is __shfl_down_sync over the tile's lanes, tile.thread_rank() the lane,
 * tile.meta_group_rank() the tile's place in the block and tile.meta_group_size() the tiles in the block.
 * block.sync() is __syncthreads(); tile.sync() is __syncwarp(), a barrier for the tile's threads alone.
 *
 * 1. Write tile_sum: the threads of tile each hold a value v; return their sum (in rank 0 at least) with
 *    tile.shfl_down(v, offset) for offset = tile.size() / 2, ..., 2, 1 (a loop that reads the tile's size
 *    rather than assuming a warp's), or with cg::reduce(tile, v, cg::plus<float>()), declared in
 *    <cooperative_groups/reduce.h>, which gives every rank the sum.
 * 2. Write block_sum: each thread adds its elements with a grid-stride loop, each tile adds its threads'
 *    sums with tile_sum, rank 0 of each tile puts the tile's sum in a __shared__ array, a float for each
 *    tile, and after a barrier the first tile adds those with tile_sum again. Thread 0 writes
 *    block_sums[blockIdx.x]. Which barrier? The sums cross from one tile to another. The launch (two
 *    passes, as in ch2_warp_sum) is fixed.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 32, 33, 1023, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x, partial (32 x sms floats) and result (one float), each its own cudaMalloc of exactly that:
 *     256-byte aligned, never offset; partial and result arrive filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x positive, uniform in [s / 2, 3 s / 2) for a scale s drawn for each call between 2^-30 and
 *     2^31: every value and sum a normal float.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launch (the tolerance counts the additions it makes). The
 *     groups and the steps of 1. and 2. are the lesson's way, which nothing checks: the judge checks the
 *     sum, and the rules read the machine code, where a tile's shfl_down is the SHFL.DOWN of
 *     __shfl_down_sync and block.sync() a BAR.SYNC as __syncthreads() is, so a file of warp intrinsics
 *     passes too.
 *
 * Rules: no atomics, no CUB.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceReduce::Sum on the same array.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_cooperative_groups
 */

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 256

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v)
{
    /* your code here */
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
