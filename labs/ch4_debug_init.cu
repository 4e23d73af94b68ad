/* Lab ch4_debug_init: counts that nothing set to zero, found with initcheck (chapter 4, Example 4.3).
 *
 * A debugging lab: the code below is written, and it is wrong. Given n keys, each below bins, it computes
 * each bin's share of the keys, share[b] = (the keys equal to b) / n. count_keys adds one to counts[key]
 * for every key (atomicAdd: many threads add to the same count), then to_shares divides each count by n.
 * The counts are whole numbers, which atomicAdd adds exactly in any order, so they live in memory of the
 * call's own, from cudaMalloc, and not in share. Run `make lab L=ch4_debug_init`: step 1 may find every
 * share right, or some calls wrong and the others right; step 2's initcheck finds the bug either way, and
 * names the line. Make the file correct and initcheck-clean, changing as little as you can.
 *
 * cudaMalloc gives memory, not zeros: it holds whatever was there. Memory this process never used often
 * comes zeroed, so counts that nothing sets to 0 may start at 0 and every share come out right; memory an
 * earlier cudaFree gave back comes with what it held (the last call's counts, the runner's poison), and
 * the shares come out wrong. The judge calls your function twice at each size, but whether memory is
 * reused is the driver's choice: no result check can be relied on to see it. initcheck can. It follows
 * every byte of every allocation from its cudaMalloc on, marks it written when a copy, a memset or a
 * kernel writes it, and reports each read of a byte never written, whatever value it happens to hold.
 * make lab prints one line per finding, for example (NVIDIA's own example of the tool, memset_error.cu: a
 * cudaMemset given the count of ints where it takes bytes, then a kernel that adds to every int)
 *   initcheck: Uninitialized __global__ memory read of size 4 bytes in vectorAdd (memset_error.cu:41) [x48];
 *     the first: thread (16,0,0) in block (0,0,0)
 * __global__: device memory; read of size 4: one int; then the kernel, and the file and line, which the
 * compiler records because make lab builds with -lineinfo; [x48]: found 48 times; then the first of them,
 * by which thread. Unlike memcheck it names no allocation and no offset: the address lies inside memory
 * that was allocated, only nothing wrote it. So ask what that line reads, and what should have written
 * it before (an atomicAdd reads the old value before it writes the new one). LAB_VERBOSE=1 make lab prints
 * the tool's whole report; the tool also runs any program: `compute-sanitizer --tool initcheck
 * ./ch4_atomics_mutex/histogram -n 100003 -r 2`, whose counts are zeroed before each count, says "ERROR
 * SUMMARY: 0 errors".
 *
 * Contract:
 *   sizes: checked (n, bins) = (1, 1), (1, 4096), (31, 7), (32, 32), (33, 1000), (1025, 256), (1025, 4096),
 *     (100003, 3), (100003, 1024), (1000003, 1), (1000003, 4096), each called twice; not timed.
 *   pointers: keys (n unsigned) and share (bins floats), each its own cudaMalloc of exactly that: 256-byte
 *     aligned, never offset; the counts are the file's own.
 *   zero: n and bins are at least 1.
 *   values: keys uniform in [0, bins), drawn afresh for every call; share arrives filled with NaN.
 *   index: 32-bit will do: n is below 2^31 (at most 1000003 here), bins at most 4096; n itself is a long long.
 *   binding: the Rules line: the kernels and their launches are fixed; the fix is to the bug, not to the design.
 *
 * Rules: the two kernels and their launches are fixed, and the counts stay in memory of the call's own.
 * Not timed: the lesson is memory written before it is read, and the fix costs one call.
 *   make lab L=ch4_debug_init
 */

#define THREADS 256

/* One more key in each key's count: counts[k] ends as the number of keys equal to k. */
__global__ void count_keys(const unsigned *keys, long long n, unsigned *counts)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&counts[keys[i]], 1u);
}

/* Each bin's share of the n keys: one thread a bin. */
__global__ void to_shares(const unsigned *counts, int bins, long long n, float *share)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < bins)
        share[b] = (float)counts[b] / (float)n;
}

/* The runner calls this with the keys on the GPU. */
void lab_key_shares(const unsigned *keys, long long n, int bins, float *share, int sms)
{
    unsigned *counts;  /* bins counts, in memory of this call's own */
    cudaMalloc(&counts, bins * sizeof(unsigned));
    count_keys<<<8 * sms, THREADS>>>(keys, n, counts);
    to_shares<<<(bins + THREADS - 1) / THREADS, THREADS>>>(counts, bins, n, share);
    cudaFree(counts);
}
