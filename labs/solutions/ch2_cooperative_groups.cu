/* Lab ch2_cooperative_groups, a solution: ch2_warp_sum's solution with the block and its warps named as
 * groups: a tile's shfl_down instead of __shfl_down_sync and its mask, block.sync() instead of
 * __syncthreads(). The tile's loop starts from its size, tile.size(), rather than from a warp's.
 *   make lab L=ch2_cooperative_groups FILE=labs/solutions/ch2_cooperative_groups.cu
 */

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 256

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);  /* rank i adds rank i + offset's value */
    return v;  /* rank 0 holds the tile's sum */
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float tile_sums[THREADS / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    sum = tile_sum(tile, sum);
    if (tile.thread_rank() == 0)
        tile_sums[tile.meta_group_rank()] = sum;
    block.sync();  /* every tile's sum is in tile_sums, written by other tiles: the block's barrier */
    if (tile.meta_group_rank() == 0) {
        sum = tile_sum(tile, tile.thread_rank() < tile.meta_group_size() ? tile_sums[tile.thread_rank()] : 0.0f);
        if (tile.thread_rank() == 0)
            block_sums[blockIdx.x] = sum;
    }
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
