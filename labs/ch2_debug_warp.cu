/* Lab ch2_debug_warp: a warp assumed to run in lockstep, found with racecheck (chapter 2, Example 2.2 and
 * warp_shuffle.cu).
 *
 * A debugging lab: the code below is written, and it has a bug. It is better.cu's tree reduction: each
 * block adds its threads' sums in shared memory, then a second launch of one block adds the blocks' sums
 * into *result. Once the tree is down to 64 values, the code leaves out the __syncthreads() and lets the
 * first warp finish alone, reasoning that a warp's 32 threads run in lockstep. That trick was common
 * before Volta (compute capability 7.0); since then each thread of a warp has its own program counter,
 * and nothing says that a lane's write lands before its neighbour's read. The compiler, too, may assume
 * that between barriers no other thread changes shared memory: it may keep values in registers and drop
 * stores. Run `make lab L=ch2_debug_warp`: step 1 finds the sums wrong, and step 2's racecheck reports a
 * race. Make the file correct and racecheck-clean, changing as little as you can.
 *
 * racecheck reports two threads touching the same shared address, one of them writing, with no barrier
 * between them, lanes of one warp included, and names the two lines:
 *   racecheck: shared-memory race in KERNEL (write at FILE:LINE and read at FILE:LINE) [xN]
 * (in its own report: "Race reported between Write access at ... and Read access at ..."). Between lanes
 * of a warp the barrier is __syncwarp(); or leave shared memory: __shfl_down_sync(mask, v, offset) gives
 * each lane the v of the lane offset above it, as warp_shuffle.cu does. The mask names the lanes taking
 * part: each lane in it must call the shuffle, and each lane that calls it must be in it. A shuffle
 * inside an if that some lanes skip, or a mask that leaves out a lane that calls it, is undefined: it may
 * give the right sum on one GPU and not on another, and often no tool sees it (synccheck checks barriers,
 * and masks where the compiler leaves a warp barrier in the code; for a shuffle it may leave none). Keep
 * the whole warp in the shuffle, with 0xffffffff.
 *
 * Contract:
 *   sizes: checked n = 1, 4, 31, 32, 33, 64, 1023, 1025, 1000003, 2^26 + 1; timed n = 2^26 + 1.
 *   pointers: x, partial (32 x sms floats) and result (one float), each its own cudaMalloc of exactly that:
 *     256-byte aligned, never offset; partial and result arrive filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x positive, uniform in [s / 2, 3 s / 2) for a scale s drawn for each call between 2^-30 and
 *     2^31: every value and sum a normal float.
 *   index: 32-bit will do: n is below 2^31 (at most 2^26 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launches (the tolerance counts the additions they make): the fix
 *     is to the bug, not to the design.
 *
 * Rules: the two launches are fixed; keep the tree down to 64 values; no atomics, no CUB, no cooperative
 * groups.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceReduce::Sum on the same array.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch2_debug_warp
 */

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    s[tid] = sum;
    __syncthreads();  /* every thread's sum is in s */
    for (int i = THREADS / 2; i > 32; i /= 2) {  /* the tree, while it spans several warps */
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();
    }
    if (tid < 32) {  /* the last 64 values: the first warp's work, its 32 threads together */
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0)
        block_sums[blockIdx.x] = s[0];
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
