/* Lab ch4_debug_atomic, a solution: both additions to a shared count made atomic.
 *
 * racecheck named block_words += mine: the block's threads read and write the same shared word at once,
 * and all but one of a warp's additions are lost. atomicAdd(&block_words, mine) makes each addition
 * whole. The same mistake was one line below, in global memory where racecheck does not look: the
 * blocks add to *words at about the same time, and the result check saw the counts come out short. One
 * atomic per thread in shared memory and one per block in global memory: few enough to cost nothing.
 *   make lab L=ch4_debug_atomic FILE=labs/solutions/ch4_debug_atomic.cu
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
    atomicAdd(&block_words, mine);  /* the block's threads add to one count: atomic */
    __syncthreads();  /* every thread's words are in the block's count */
    if (threadIdx.x == 0)
        atomicAdd(words, block_words);  /* the blocks add to one count: atomic too */
}

/* The runner calls this with the text on the GPU. */
void lab_count_words(const unsigned char *text, long long n, unsigned *words, int sms)
{
    cudaMemsetAsync(words, 0, sizeof(unsigned));
    count_words<<<8 * sms, THREADS>>>(text, n, words);
}
