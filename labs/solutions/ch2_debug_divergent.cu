/* Lab ch2_debug_divergent, a solution: the loop counts the block's frames, the same passes for all its threads.
 *
 * synccheck named the barriers of the loop: in the block that loads the last frame, when n is not a whole
 * number of frames, the threads past n had left the loop (its condition, i < n, was each thread's own)
 * while the others waited at the barriers of one more pass. They had not written their places of s
 * either, so the tree added what the block's earlier frame had left there: the last sum was too large.
 * The loop now runs over frames, f = blockIdx.x, blockIdx.x + gridDim.x, ...: its condition is the
 * block's, so every thread of the block makes the same passes and reaches every barrier as often as the
 * others. The thread's own bound, i < n, guards only its load: a thread past n puts 0 in its place, which
 * adds nothing. No barrier is inside an if, and no thread returns early.
 *   make lab L=ch2_debug_divergent FILE=labs/solutions/ch2_debug_divergent.cu
 */

#define THREADS 256  /* threads in a block, and samples in a frame */

/* sums[f] = the sum of frame f, x[256 f] .. x[256 f + 255] (the last frame shorter): a block's threads
 * take one frame a pass, a sample each, and add it up in shared memory. */
__global__ void frame_sums(const float *x, long long n, float *sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    long long frames = (n + THREADS - 1) / THREADS;
    for (long long f = blockIdx.x; f < frames; f += gridDim.x) {  /* the block's frames: every thread alike */
        long long i = f * THREADS + tid;
        s[tid] = i < n ? x[i] : 0.0f;  /* past n: 0, which adds nothing */
        __syncthreads();  /* reached by every thread: the frame's samples are all in s */
        for (int half = THREADS / 2; half > 0; half /= 2) {  /* the tree: s[0] ends with the frame's sum */
            if (tid < half)
                s[tid] += s[tid + half];
            __syncthreads();  /* outside the if: every thread, after every step */
        }
        if (tid == 0)
            sums[f] = s[0];
    }
}

/* The runner calls this with arrays on the GPU: sums has room for one float a frame. */
void lab_frame_sums(const float *x, long long n, float *sums, int sms)
{
    frame_sums<<<2 * sms, THREADS>>>(x, n, sums);
}
