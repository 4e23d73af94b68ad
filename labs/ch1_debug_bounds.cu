/* Lab ch1_debug_bounds: an access past the end of an array, found with memcheck (chapter 1, Example 1.5).
 *
 * A debugging lab: the code below is written, and it has a bug. It is adjust_log.cu's 2D grid-stride
 * loop, out = gain * log2(1 + in) over a row-major picture of width x height floats, except that each
 * thread takes two neighbouring pixels of a row at each step (two loads in flight, as chapter 2's
 * exercise 5 suggests). Run `make lab L=ch1_debug_bounds`: step 1 finds every pixel right, at every
 * shape, and says that something wrote past the end of a buffer (the runner leaves 4 KiB of poison after
 * each, and it changed). Step 2 runs the same checks under compute-sanitizer, and its memcheck tool says
 * FAIL and which line. Make the file correct and memcheck-clean, changing as little as you can.
 *
 * memcheck watches every load and store of every kernel and compares its address with the memory that
 * was allocated. An access a little past the end of an array usually runs without an error (the address
 * still lies in memory the GPU has mapped) and may even leave the right answer: memcheck is how you
 * know. make lab prints one line per finding, for example (from another lab)
 *   memcheck: Invalid __global__ read of size 4 bytes in saxpy (my_map.cu:14) [x31]; the first: thread
 *     (31,0,0) in block (3,0,0), 4 bytes after the nearest allocation, of 4000 bytes
 * __global__: device memory; read or write; size 4: one float; then the kernel, and the file and line,
 * which the compiler records because make lab builds with -lineinfo; [x31]: found 31 times; then the
 * first of them: which thread, in which block, and how far past (or before) the array it reached, whose
 * size in bytes says which array it was. LAB_VERBOSE=1 make lab prints the tool's whole report, every
 * finding with its thread and address; the tool also runs any program: `compute-sanitizer --tool
 * memcheck ./ch1_embarrassing/adjust_log` (that program is right: "ERROR SUMMARY: 0 errors"). Ask which
 * pixels the thread at that line was working on, and at which shapes of picture it goes wrong. (When a
 * kernel crashes outright, cuda-gdb stops at the faulting thread and prints its variables: `make DEBUG=1`
 * builds the course's programs with -G -g for it.)
 * A guard that stops the loop early can silence memcheck and lose pixels: step 1 checks every pixel.
 *
 * Contract:
 *   sizes: checked width x height = 1 x 1, 2 x 1, 31 x 33, 32 x 33, 33 x 31, 1025 x 1, 1 x 1025, 1024 x 7,
 *     1025 x 7, 1023 x 1025, 8191 x 4097; timed 8191 x 4097.
 *   pointers: in and out, each its own cudaMalloc of exactly width x height floats: 256-byte aligned, never
 *     offset; a row is width floats, with no padding between rows.
 *   zero: width and height are at least 1.
 *   values: in uniform in [0, 1), gain in [0.5, 1.5) (24 random bits), drawn afresh for every call; out
 *     arrives filled with NaN.
 *   index: 32-bit: width x height is below 2^31 (at most 33,558,527 here).
 *   binding: the Rules line and the fixed launch: the fix is to the bug, not to the design.
 *
 * Rules: keep the grid-stride loops and two pixels a thread; the launch is fixed; no atomics.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 4 bytes and writes 4 per pixel).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch1_debug_bounds
 */

__global__ void adjust_log(const float *in, float *out, int width, int height, float gain)
{
    int stride_x = 2 * blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = 2 * (threadIdx.x + blockIdx.x * blockDim.x); x < width; x += stride_x) {
            long long i = (long long)y * width + x;  /* pixels x and x + 1 of row y */
            float a = in[i], b = in[i + 1];          /* both loads in flight before either is used */
            out[i] = gain * log2f(1.0f + a);
            out[i + 1] = gain * log2f(1.0f + b);
        }
}

/* The runner calls this with pictures on the GPU. */
void lab_adjust_log(const float *in, float *out, int width, int height, float gain)
{
    dim3 threads(16, 16), blocks(64, 64);  /* the article's launch, whatever the picture's size */
    adjust_log<<<blocks, threads>>>(in, out, width, height, gain);
}
