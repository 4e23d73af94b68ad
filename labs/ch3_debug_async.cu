/* Lab ch3_debug_async: a kernel's fault that a later call reports (chapter 3; grid_stride.cu's float4 loads).
 *
 * A debugging lab: the code below is written, and it has a bug. lab_gain_clip applies a gain to n samples
 * and clips them to [-1, 1], two kernels on `stream`: apply_gain, which reads four samples at a time as one
 * float4 (grid_stride.cu's "going further": a quarter of the load instructions), then clip. The samples
 * are a window of a longer recording, so `in` may start at any sample of its array, not only where a
 * cudaMalloc starts. Run `make lab L=ch3_debug_async`: step 1 passes the first sizes, then stops with a
 * CUDA error, cudaErrorMisalignedAddress. Just above the judge's word, a line of the runner's (marked
 * " | ") is your file's own check: it names a line of lab_gain_clip after both launches (the wait for the
 * stream, most often), and neither kernel. Step 2's memcheck names the line at fault. Make the file
 * correct, changing as little as you can.
 *
 * A launch only queues its kernel and returns at once, before the kernel has run: the only error it can
 * report is one of the launch itself (a grid or a block the GPU cannot take), which cudaGetLastError()
 * right after it gives. A fault while the kernel runs is reported later, by the first CUDA call after it
 * that waits for the GPU or finds the GPU stopped: here the check of cudaStreamSynchronize(stream), or,
 * where the fault came first, even the one after clip's launch. The error is sticky: the GPU's context is
 * lost, every CUDA call after it fails with the same error, and the process must end. So the line a
 * check names is where the error was noticed, not where it happened: any kernel queued before that line
 * may be the one. The judge's report says so too: the runner's own wait, once your function returned,
 * found it. To find the kernel:
 *   - Wait after each kernel while you debug: a check of cudaStreamSynchronize(stream) (or of
 *     cudaDeviceSynchronize()) right after a launch reports that kernel's fault at that line.
 *     CUDA_LAUNCH_BLOCKING=1 makes every launch wait for its kernel without a change to the code, and the
 *     check after the launch then reports it: `CUDA_LAUNCH_BLOCKING=1 make lab L=ch3_debug_async` (the
 *     grade passes CUDA's variables on to your code). Both make every launch slow: for debugging only.
 *   - compute-sanitizer's memcheck (step 2) watches every access of every kernel; it names the kernel, its
 *     line and the first thread, and says what was wrong with the address, for example
 *       memcheck: Invalid __global__ read of size 16 bytes in apply_gain (my_async.cu:LINE); the first:
 *         thread (0,0,0) in block (0,0,0), at a misaligned address
 *     size 16 bytes: one float4. Run the tool on any program: `compute-sanitizer --tool memcheck PROGRAM`.
 * Then ask why that address. A float4 load reads 16 bytes at once, and the GPU takes it only from an
 * address that is a multiple of 16 (a float's, of 4). cudaMalloc returns 256-byte aligned memory, which
 * is why apply_gain is right on a whole array; a window that starts one sample later does not start on
 * such a boundary, and neither does any float4 read from it. The fix keeps the float4 loads where they
 * can be: the samples before in's first 16-byte boundary (the head: none to three of them, and never more
 * than n) one at a time, float4 loads from that boundary on, and the last samples that make no whole
 * float4 (the tail) one at a time. An address's place past a 16-byte boundary is
 * (unsigned long long)in % 16, in bytes.
 *
 * Contract:
 *   sizes: checked n = 1, 3, 6, 7, 33, 1025, 65537, 1000003, 2^24 + 3. Not timed.
 *   pointers: in, a window, offset floats past the start of a cudaMalloc (256-byte aligned) of exactly
 *     offset + n floats; offset drawn for each call below 64, its remainder by 4 set for each size so that
 *     all four remainders come among the small sizes; the offset floats before in are NaN. out, its own
 *     cudaMalloc of exactly n floats: 256-byte aligned, not offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: in uniform in [-1, 1), gain in [0.5, 2) (24 random bits), drawn afresh for every call; out
 *     arrives filled with NaN, and is checked exactly: the gain times the sample, rounded once, then
 *     clipped.
 *   index: 32-bit will do: n is below 2^31 (at most 2^24 + 3 here); n itself is a long long.
 *   binding: the Rules line, the two launches and the checks: the fix is to the bug, not to the design.
 *
 * Rules: the launches, clip and the checks of lab_gain_clip are fixed; apply_gain keeps its float4 loads
 * for the samples from in's first 16-byte boundary on; no atomics.
 * Not timed: the lab is judged on its results alone.
 *   make lab L=ch3_debug_async
 */
#include <stdio.h>

#define THREADS 256

/* out[i] = gain * in[i], four samples a thread: one float4 load brings in[4t .. 4t + 3]. The last n % 4
 * samples, which make no whole float4, are the first threads' work, one each. */
__global__ void apply_gain(const float *in, float *out, long long n, float gain)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t < n / 4) {
        float4 v = ((const float4 *)in)[t];  /* four samples, one 16-byte load */
        long long i = 4 * t;
        out[i] = gain * v.x;
        out[i + 1] = gain * v.y;
        out[i + 2] = gain * v.z;
        out[i + 3] = gain * v.w;
    }
    long long tail = n / 4 * 4 + t;
    if (t < n % 4)
        out[tail] = gain * in[tail];
}

/* Fixed: each sample clipped to [-1, 1], one a thread (a NaN stays NaN). */
__global__ void clip(float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = out[i];
        out[i] = v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v;
    }
}

/* Fixed: the file's check of a CUDA call. As the course's CUDA_CHECK, it prints the file, the line, the
 * call and the error (on stderr, which the report shows after " | "); unlike it, it returns 1 rather than
 * end the process, so that the judge's report follows. */
static int check_call(cudaError_t err, const char *call, int line)
{
    if (err != cudaSuccess)
        fprintf(stderr, "%s:%d: %s returned %s (%s)\n", __FILE__, line, call, cudaGetErrorName(err),
                cudaGetErrorString(err));
    return err != cudaSuccess;
}
#define CHECK(call) check_call((call), #call, __LINE__)

/* in: n samples on the GPU, a window of a longer array; out: n floats on the GPU; stream: the runner's. */
void lab_gain_clip(const float *in, float *out, long long n, float gain, cudaStream_t stream)
{
    apply_gain<<<(unsigned)((n / 4 + THREADS) / THREADS), THREADS, 0, stream>>>(in, out, n, gain);
    if (CHECK(cudaGetLastError()))  /* the launch itself: a grid or block the GPU refused */
        return;
    clip<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS, 0, stream>>>(out, n);
    if (CHECK(cudaGetLastError()))
        return;
    CHECK(cudaStreamSynchronize(stream));  /* both kernels done */
}
