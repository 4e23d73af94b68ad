/* Lab ch4_histogram: a histogram with shared-memory atomics (chapter 4, Examples 4.3 and 4.4).
 *
 * Write the kernel histogram: bins[b] = how many bytes of data[0..n) equal b, for the 256 byte values.
 * Thousands of threads adding to 256 counters in global memory would queue up on the same addresses.
 * Give each block its own 256 counters in __shared__ memory instead: zero them, wait, let the block's
 * threads count their bytes (a grid-stride loop) with atomicAdd on the shared counters, wait, then add
 * the block's 256 counts to bins with one atomicAdd each. bins may arrive holding anything: lab_histogram
 * zeroes it (cudaMemsetAsync) before your kernel runs.
 *
 * Contract:
 *   sizes: checked n = 1, 31, 33, 1025, 1000003, 2^27 + 1; timed n = 2^27 + 1.
 *   pointers: data, its own cudaMalloc of exactly n bytes (a 16-byte load needs a tail: n is rarely a
 *     multiple of 16), and bins, of 256 unsigned: 256-byte aligned, never offset.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: an English-like text (letters at their frequencies in English, one in 32 a capital, spaces,
 *     commas, full stops, line ends) with one byte in 64 of any of the 256 values, drawn afresh for every
 *     call; bins arrives filled with 0xff bytes, or zeroed.
 *   index: 32-bit will do: n is below 2^31 (at most 2^27 + 1 here); n itself is a long long.
 *   binding: the Rules line and the counts in bins; the launch, the counters in shared memory and the
 *     merge are the course's solution.
 *
 * Rules: no CUB. Counts are exact: every byte counted once.
 * Target: 70% of the course's solution's speed; the limit is cub::DeviceHistogram::HistogramEven.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch4_histogram
 */

#define BINS 256
#define THREADS 256

__global__ void histogram(const unsigned char *data, long long n, unsigned *bins)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU. */
void lab_histogram(const unsigned char *data, long long n, unsigned *bins, int sms)
{
    cudaMemsetAsync(bins, 0, BINS * sizeof(unsigned));
    histogram<<<8 * sms, THREADS>>>(data, n, bins);
}
