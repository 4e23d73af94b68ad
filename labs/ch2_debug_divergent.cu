/* Lab ch2_debug_divergent: a barrier that some threads of the block skip, found with synccheck (chapter 2,
 * better.cu's tree in chapter 1's grid-stride loop).
 *
 * A debugging lab: the code below is written, and it has a bug. A recording of n samples is cut in frames
 * of 256 samples (the last frame holds what is left of n), and sums[f] must be the sum of frame f's
 * samples. frame_sums is a grid-stride loop over the samples, in blocks of 256 threads: on each pass, a
 * block's threads load one whole frame into shared memory, a sample each, and add it up with better.cu's
 * tree, a __syncthreads() after each step; thread 0 writes the frame's sum. Run `make lab
 * L=ch2_debug_divergent`: step 1 finds the last frame's sum wrong, too large, at the larger sizes, and step
 * 2's synccheck reports a barrier error. Make the file correct and synccheck-clean, changing as little as
 * you can.
 *
 * __syncthreads() makes each thread of the block wait there until every thread of the block has reached
 * it: so every thread must reach it, and each the same number of times. A __syncthreads() inside an if
 * that some threads skip, inside a loop that some threads leave before the others, or after a return
 * that some threads took, is undefined behaviour (the CUDA C++ Programming Guide allows a barrier in
 * conditional code only where the condition is the same for the whole block). Since Volta (compute
 * capability 7.0) each thread has its own program counter, and such a kernel may hang, give wrong
 * results, or seem to work on one GPU and not on another: the result check alone cannot tell you that it
 * is right. compute-sanitizer's synccheck watches every barrier, and reports one that the threads of a
 * warp or of a block did not reach together; make lab prints a line per barrier, with the kernel, the
 * line and the first thread it found there, for example
 *   synccheck: Barrier error detected. Divergent thread(s) in warp. in frame_sums (my_divergent.cu:LINE)
 *     [xN]; the first: thread (T,0,0) in block (B,0,0)
 * ("in block" where whole warps went another way; "Invalid arguments" is its word for a __syncwarp()
 * whose mask leaves out a thread that calls it). A whole report: `compute-sanitizer --tool synccheck
 * PROGRAM`. Then ask which threads leave the loop, and when: its condition is each thread's own. The fix
 * is a loop whose count is the block's, the same for all its threads, with the work inside it guarded by
 * the thread's own bound, and every barrier outside any if that depends on the thread. A thread with no
 * sample left still takes part: it puts a value that adds nothing in its place of the shared array, and
 * waits at every barrier. A return before the barrier, for the threads past n, is the same bug again.
 *
 * Contract:
 *   sizes: checked n = 1, 255, 256, 257, 1000, 4099, 131071, 1000003 (twice, on the same samples),
 *     2^24 + 3. Not timed.
 *   pointers: x, n floats, and sums, one float a frame ((n + 255) / 256 of them), each its own cudaMalloc
 *     of exactly that: 256-byte aligned, never offset; sums arrives filled with NaN.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: x positive, uniform in [s / 2, 3 s / 2) for a scale s drawn for each call between 2^-30 and
 *     2^31, drawn afresh for every call: every value and sum a normal float.
 *   index: 32-bit will do for a thread's sample: n is below 2^31 (at most 2^24 + 3 here); n itself is a
 *     long long.
 *   binding: the Rules line and the fixed launch: the fix is to the bug, not to the design.
 *
 * Rules: the launch is fixed; a frame's sum is the tree in shared memory, a __syncthreads() after each
 * step; no atomics, no warp shuffles, no barrier reductions (__syncthreads_count and its kin).
 * Not timed: the lab is judged on its results alone.
 *   make lab L=ch2_debug_divergent
 */

#define THREADS 256  /* threads in a block, and samples in a frame */

/* sums[f] = the sum of frame f, x[256 f] .. x[256 f + 255] (the last frame shorter): a block's threads
 * take one frame a pass, a sample each, and add it up in shared memory. */
__global__ void frame_sums(const float *x, long long n, float *sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    for (long long i = blockIdx.x * (long long)THREADS + tid; i < n; i += (long long)THREADS * gridDim.x) {
        s[tid] = x[i];  /* my sample of this pass's frame */
        __syncthreads();  /* the frame's samples are all in s */
        for (int half = THREADS / 2; half > 0; half /= 2) {  /* the tree: s[0] ends with the frame's sum */
            if (tid < half)
                s[tid] += s[tid + half];
            __syncthreads();
        }
        if (tid == 0)
            sums[i / THREADS] = s[0];  /* thread 0's sample is its frame's first */
    }
}

/* The runner calls this with arrays on the GPU: sums has room for one float a frame. */
void lab_frame_sums(const float *x, long long n, float *sums, int sms)
{
    frame_sums<<<2 * sms, THREADS>>>(x, n, sums);
}
