/* Lab ch2_shared_reverse, a solution: a segment through a shared tile (chapter 2, Examples 2.5a and 2.5b).
 *
 * Each thread loads one element into the tile, and after the barrier writes the element that the thread
 * at the mirrored place loaded: a value that crosses warps, so it must wait for the whole tile. The last
 * segment may be shorter than a block: its threads past the end load a zero that nobody reads and write
 * nothing, but they still reach the barrier.
 *   make lab L=ch2_shared_reverse FILE=labs/solutions/ch2_shared_reverse.cu
 */

#define SEGMENT 256  /* elements in a segment, and threads in a block */

__global__ void reverse_segments(const float *in, float *out, int n)
{
    __shared__ float tile[SEGMENT];
    int t = threadIdx.x;
    int first = blockIdx.x * SEGMENT;       /* this block's segment starts here */
    int length = min(SEGMENT, n - first);  /* 256, but for the last segment */
    tile[t] = t < length ? in[first + t] : 0.0f;
    __syncthreads();  /* the whole tile is loaded before any thread reads another's element */
    if (t < length)
        out[first + t] = tile[length - 1 - t];
}

/* The runner calls this with arrays on the GPU. */
void lab_reverse_segments(const float *in, float *out, int n)
{
    reverse_segments<<<(n + SEGMENT - 1) / SEGMENT, SEGMENT>>>(in, out, n);
}
