/* Lab ch4_debug_atomic: a count that loses updates, found with the result check and racecheck (chapter 4,
 * Examples 4.1 and 4.2).
 *
 * A debugging lab: the code below is written, and it is wrong. It counts the words of a text: a word
 * starts at byte i when text[i] is a letter (A to Z, a to z) and text[i - 1] is not, or i is 0. Each
 * thread counts the words that start in its bytes (a grid-stride loop), the block adds its threads'
 * counts into one counter in shared memory, and one thread of each block adds that to *words, which the
 * launch zeroes: add_one.cu's shared counter (add_one_shared), put to work. Run
 * `make lab L=ch4_debug_atomic`: step 1 finds fewer words than there are, and step 2's racecheck reports
 * a race. Make the file correct and racecheck-clean, changing as little as you can.
 *
 * count = count + mine is three steps, a read, an add and a write; when two threads do it at once, both
 * read the same old count and one addition is lost. atomicAdd(&count, mine) does the three as one, which
 * no other thread can come between. Two checks see lost updates. The result check: the count comes out
 * short, often by a different amount each run. racecheck, for shared memory only: it reports threads of
 * a block that read and write the same shared address with no barrier between them, and the two lines:
 *   racecheck: shared-memory race in KERNEL (write at FILE:LINE and read at FILE:LINE) [xN]
 * (a whole report: `compute-sanitizer --tool racecheck ./ch4_atomics_mutex/add_one`, whose shared counter
 * races on purpose). A race in global memory, between blocks, no tool here reports: add_one's
 * x[0] = x[0] + 1 shows only in its count. So fix what racecheck names, then ask the same question of
 * every other place where many threads add to one number.
 *
 * Contract:
 *   sizes: checked n = 1, 2, 31, 33, 1025, 100003, 1000003, 2^27 + 1; timed n = 2^27 + 1.
 *   pointers: text (n bytes) and words (one unsigned), each its own cudaMalloc of exactly that: 256-byte
 *     aligned, never offset; words arrives filled with 0xff bytes.
 *   zero: n = 0 is not a size: n is at least 1.
 *   values: an English-like text (letters at their frequencies in English, one in 32 a capital, spaces,
 *     commas, full stops, line ends) with one byte in 64 of any of the 256 values, drawn afresh for every
 *     call.
 *   index: 32-bit will do: n is below 2^31 (at most 2^27 + 1 here); n itself is a long long.
 *   binding: the Rules line and the fixed launch: the fix is to the bug, not to the design.
 *
 * Rules: keep the shared counter per block; the launch is fixed.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads each byte of the text).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch4_debug_atomic
 */

#define THREADS 256

__device__ int is_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

__global__ void count_words(const unsigned char *text, long long n, unsigned *words)
{
    __shared__ unsigned block_words;  /* this block's count */
    if (threadIdx.x == 0)
        block_words = 0;
    __syncthreads();  /* the count is zero before anyone adds to it */
    unsigned mine = 0;  /* the words that start in this thread's bytes */
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        if (is_letter(text[i]) && (i == 0 || !is_letter(text[i - 1])))
            mine++;
    block_words += mine;
    __syncthreads();  /* every thread's words are in the block's count */
    if (threadIdx.x == 0)
        *words += block_words;
}

/* The runner calls this with the text on the GPU. */
void lab_count_words(const unsigned char *text, long long n, unsigned *words, int sms)
{
    cudaMemsetAsync(words, 0, sizeof(unsigned));
    count_words<<<8 * sms, THREADS>>>(text, n, words);
}
