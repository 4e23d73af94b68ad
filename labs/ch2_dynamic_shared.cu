/* Lab ch2_dynamic_shared: shared memory sized at launch, past 48 KiB (chapter 2; ch2_reduction/naive.cu's
 * note on dynamic shared memory).
 *
 * The array is cut in tiles of `tile` elements, one for each block of 256 threads; the last tile holds
 * what is left of n. Write the kernel rotate_tiles and its launch: each block rotates its tile left by
 * `shift`, in place. With first = blockIdx.x * tile and length the tile's own length (tile, or n - first
 * for the last one), the element at first + i becomes the one that was at first + (i + shift) % length.
 * In place, a thread's write may land on an element another thread has yet to read: so the block copies
 * its whole tile into shared memory, waits for every thread's copy (__syncthreads(), reached by every
 * thread of the block), and only then writes the tile back, rotated. A tile may hold tens of thousands of
 * elements and a block has 256 threads: each thread copies and writes every 256th element of the tile
 * (i = threadIdx.x, threadIdx.x + blockDim.x, ...).
 *
 * ch2_shared_reverse's tile was an array of a constant size, __shared__ float tile[SEGMENT]: its bytes
 * are part of the compiled kernel, and a static array may take at most 48 KiB. Here the judge draws the
 * tile's size for each call, up to the most this GPU lets a block have. Shared memory of a size known
 * only at run time is declared without one, once, in the kernel:
 *     extern __shared__ float s[];   (s[0] to s[tile - 1]: as many floats as the launch gives bytes for)
 * and its size, in bytes (not elements), is the launch's third parameter:
 *     kernel<<<blocks, threads, bytes>>>(...)   (a fourth would be the stream)
 * Up to 48 KiB, a launch takes it as it is. Past 48 KiB the launch is refused (cudaErrorInvalidValue:
 * no kernel runs) unless the kernel was allowed that much first, by a call before the launch:
 *     cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
 * which takes any size up to what the device reports as sharedMemPerBlockOptin (cudaGetDeviceProperties;
 * or cudaDeviceGetAttribute with cudaDevAttrMaxSharedMemoryPerBlockOptin): 64 KiB at compute capability
 * 7.5 (a T4), 163 KiB at capability 8.0 (an A100), 99 KiB at capability 8.6 or 8.9 (an RTX 3090 or 4090)
 * and at capability 12.0 (an RTX 5090), 227 KiB at capability 9.0 or 10.0 (an H100, an H200, a B200),
 * from NVIDIA's CUDA C++ Programming Guide and its tuning guides. Every GPU the course builds for allows
 * more than 48 KiB, and the judge asks for more on every one of them.
 *
 * Contract:
 *   sizes: checked (n, tile) = (1, 1), (5, 3), (1000, 256), (1000, 300), (24577, 12288: 48 KiB, the most
 *     without the opt-in), (36872, 12289), (32868, 16384: 64 KiB), (2 max + 7, max), (100003, a tile drawn
 *     past 48 KiB, up to max), (1000003, a tile drawn from 2 to 12288), (2^24 + 3, max), where max is the
 *     GPU's sharedMemPerBlockOptin in floats (the judge reads it). Not timed.
 *   pointers: data, its own cudaMalloc of exactly n floats: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n and tile are at least 1; shift is 0 where tile is 1, else drawn from 1
 *     to tile - 1 (the last tile, shorter, is rotated by shift % length).
 *   values: data holds any finite float (all 32 bits drawn: both zeros and subnormals, no infinity or
 *     NaN), drawn afresh for every call, and every bit must survive.
 *   index: 32-bit: n is an int below 2^31 (at most 2^24 + 3 here).
 *   binding: the Rules line and what data holds after the call; rotate_tiles may have no static
 *     __shared__ array of its own (the largest tile leaves no room for one). A block of 256 threads for
 *     each tile, its tile staged whole in dynamic shared memory, is the lesson's way: the judge does not
 *     check the launch's shape, and the rules check the staging in part (they refuse memory of the file's
 *     own, copies, local memory and warp shuffles).
 *
 * Rules: the tile in dynamic shared memory: no cudaMalloc, no copies, no local memory, no warp shuffles,
 * no atomics. Not timed: the lab is judged on its results alone.
 *   make lab L=ch2_dynamic_shared
 */

#define THREADS 256  /* threads in a block */

__global__ void rotate_tiles(float *data, int n, int tile, int shift)
{
    /* your code here */
}

/* The runner calls this with data on the GPU: launch rotate_tiles here, a block of THREADS threads for
 * each tile. */
void lab_rotate_tiles(float *data, int n, int tile, int shift)
{
    /* your launch here */
}
