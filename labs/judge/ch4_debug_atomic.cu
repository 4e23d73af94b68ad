/* ch4_debug_atomic's judge: the student's word count of an English-like text with bytes of every value in
 * it (random.h's lab_text_byte), compared with the CPU's count at sizes from 1 byte to 2^27 + 1; the two largest are
 * counted three times where no sanitizer runs, since updates lost between blocks come and go from run to
 * run; then timed against the copy bandwidth. Every call counts a text of its own, drawn from lab_fresh.
 * The count is one number, which a file could compute once and keep, or hide in the text's buffer: before
 * each timed run the judge draws a whole new text on the GPU and counts its words there with a kernel of
 * its own (drawn again if the count came out as the run's before), poisons the count, and checks it.
 * The file as handed out adds to its counters with += where atomicAdd is needed: its counts come out short,
 * and compute-sanitizer's racecheck (labs/grade's step 2) names the race in shared memory. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { TEXT_STREAM = 1 };

/* ==== The text ==== */

static LAB_HOST_DEVICE int is_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The judge's text on the GPU, n bytes from `seed`, and where words is given the words that start in it:
 * a timed run's input and reference. Whether a word starts at i needs byte i - 1 too: made again here,
 * never read back from memory the runner can write. Each block adds its threads' counts in shared
 * memory, then to *words. */
__global__ void text_and_words(unsigned char *text, long long n, unsigned long long seed, unsigned *words)
{
    __shared__ unsigned block_words;
    if (threadIdx.x == 0)
        block_words = 0;
    __syncthreads();
    unsigned mine = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned char c = lab_text_byte(seed, TEXT_STREAM, i);
        text[i] = c;
        mine += is_letter(c) && (i == 0 || !is_letter(lab_text_byte(seed, TEXT_STREAM, i - 1)));
    }
    atomicAdd(&block_words, mine);
    __syncthreads();
    if (threadIdx.x == 0 && words)
        atomicAdd(words, block_words);
}

/* A text of n bytes from `seed` into dev_text, and with want its words (dev_words: the judge's counter). */
static void draw_text(unsigned char *dev_text, long long n, unsigned long long seed, unsigned *dev_words,
                      unsigned *want)
{
    long long blocks = ceil_div(n, 256);
    if (want)
        CUDA_CHECK(cudaMemset(dev_words, 0, sizeof(unsigned)));
    text_and_words<<<(int)(blocks < 4096 ? blocks : 4096), 256>>>(dev_text, n, seed, want ? dev_words : NULL);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (want)
        CUDA_CHECK(cudaMemcpy(want, dev_words, sizeof(unsigned), cudaMemcpyDeviceToHost));
}

/* ==== Calls and the CPU's count ==== */

/* Whether a word starts at byte i: a letter after a byte that is not one, or at the start. */
static int word_starts(const unsigned char *text, long long i)
{
    return is_letter(text[i]) && (i == 0 || !is_letter(text[i - 1]));
}

static unsigned count(const unsigned char *text, long long n)
{
    unsigned words = 0;
    for (long long i = 0; i < n; i++)
        words += word_starts(text, i);
    return words;
}

/* One call of lab_count_words(text, n, words, sms): the text's first n bytes in, the count back in *got
 * (it arrives poisoned: the launch function zeroes it). */
static int count_call(struct lab *lab, const unsigned char *text, long long n, unsigned *got)
{
    struct lab_call c;
    lab_call_start(&c);
    lab_in(&c, text, n);
    lab_int(&c, n);
    lab_out(&c, NULL, got, sizeof(unsigned));
    lab_int(&c, lab->dev.sms);
    return lab_run(lab, &c);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_debug_atomic: a count that loses updates, found with racecheck", &reps);
    const long long sizes[] = {1, 2, 31, 33, 1025, 100003, 1000003, (1LL << 27) + 1};
    const int last = COUNT_OF(sizes) - 1;
    const long long n_max = sizes[last];
    /* Each call's text is made on the GPU (the CPU would take over a second at 2^27 bytes) and read back:
     * the call sends it, and the CPU counts it. */
    unsigned char *text = NULL, *dev_made = NULL;
    if (!lab.time) {
        text = (unsigned char *)host_alloc(n_max);
        dev_made = (unsigned char *)lab_device_alloc(n_max);
    }
    lab_big_sizes(&lab, 2);  /* 1000003 and 2^27 + 1 */
    int stopped = 0;  /* the runner failed (it said why): no further calls */
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time && !stopped; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        /* The largest sizes three times, a text of its own each time: a lost update between blocks need not
         * happen on every run. Once under a sanitizer, which is slow and looks for other things. */
        for (int run = 0; run < (k >= last - 1 && !lab.small ? 3 : 1); run++) {
            draw_text(dev_made, n, lab_fresh(&lab), NULL, NULL);
            CUDA_CHECK(cudaMemcpy(text, dev_made, n, cudaMemcpyDeviceToHost));
            unsigned want = count(text, n), got;
            if ((stopped = count_call(&lab, text, n, &got)))
                break;
            char what[48];
            snprintf(what, sizeof what, "n = %lld, words, run %d", n, run + 1);
            if (lab_check_uints(&lab, what, &got, &want, 1, 0)) {
                if (got < want)
                    lab_hint(&lab, "%u of %u words counted: updates were lost, where many threads add to one "
                             "counter with += (read, add, write back). racecheck (step 2 of make lab) names such "
                             "a line in shared memory; in global memory only the count shows it", got, want);
                else if (got != 0xffffffffu)
                    lab_hint(&lab, "%u words counted, %u in the text: a word counted twice, or a counter that "
                             "was not zeroed?", got, want);
                break;
            }
        }
    }
    if (dev_made)
        CUDA_CHECK(cudaFree(dev_made));
    free(text);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: a whole new text before each, its words counted by the judge's kernel; the count
     * checked after each. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    unsigned char *dev_text = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *words = (unsigned *)lab_shared(&lab, sizeof(unsigned));
    unsigned *dev_want = (unsigned *)lab_device_alloc(sizeof(unsigned));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, dev_text);
    lab_int(&c, n_max);
    lab_use(&c, words);
    lab_int(&c, lab.dev.sms);
    static struct lab_sample s;
    s.output = words, s.size = 4, s.n = 1;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    unsigned want = 0;  /* the warm-up has no run before it: 0, which no text of this size counts */
    while (lab_clock_next(&clock)) {
        /* All of the text: nothing kept in it survives. Drawn again in the rare case that its count is the
         * last run's, so that a count kept from that run is wrong. */
        unsigned before = want;
        do
            draw_text(dev_text, n_max, lab_fresh(&lab), dev_want, &want);
        while (want == before);
        lab_poison(words, sizeof(unsigned));
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        unsigned got = lab_sample_uint(&s, 0);
        char what[48];
        snprintf(what, sizeof what, "timed run %d, words", clock.run + 1);
        if (lab_check_uints(&lab, what, &got, &want, 1, 0)) {
            if (got == before && clock.run >= 0)
                lab_hint(&lab, "the count is the run's before, although the text changed since: each run must "
                               "count the text it is given");
            break;
        }
    }
    if (!lab.failures) {
        printf("  every timed run's count was right, on a text of %lld bytes drawn afresh before each run\n", n_max);
        lab_report(&lab, lab_clock_stats(&lab, &clock), (double)n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    return lab_end(&lab);
}
