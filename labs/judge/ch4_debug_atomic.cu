/* ch4_debug_atomic's judge: the student's word count of an English-like text (common/text.h, from a seed
 * drawn from the judge's), compared with the CPU's count at sizes from 1 byte to 2^27 + 1; the two largest
 * are counted three times, since updates lost between blocks come and go from run to run; then timed
 * against the copy bandwidth.
 * The count is one number, which a file could compute once and keep: before each timed run the judge
 * poisons it and changes 64 bytes of the text (places and values from the seed and the run's number),
 * more if the count came out as the run's before, and checks the count that follows from them.
 * The file as handed out adds to its counters with += where atomicAdd is needed: its counts come out short,
 * and compute-sanitizer's racecheck (labs/grade's step 2) names the race in shared memory. */
#include <stdio.h>
#include <stdlib.h>

#include "../../common/text.h"
#include "lab.h"

enum { CHANGES = 64 };  /* bytes of the text changed before each timed run, at least */

static int is_letter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

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

/* Byte i of the text gets `value`, in the judge's copy and on the GPU; the count follows (the words that
 * start at i and at i + 1 are the only ones that can change). */
static void change_byte(unsigned char *text, unsigned char *dev_text, long long n, long long i, unsigned char value,
                        unsigned *words)
{
    *words -= word_starts(text, i) + (i + 1 < n ? word_starts(text, i + 1) : 0);
    text[i] = value;
    *words += word_starts(text, i) + (i + 1 < n ? word_starts(text, i + 1) : 0);
    CUDA_CHECK(cudaMemcpy(dev_text + i, &value, 1, cudaMemcpyHostToDevice));
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_debug_atomic: a count that loses updates, found with racecheck", &reps);
    const long long sizes[] = {1, 2, 31, 33, 1025, 100003, 1000003, (1LL << 27) + 1};
    const int last = COUNT_OF(sizes) - 1;
    const long long n_max = sizes[last];
    unsigned char *text = (unsigned char *)host_alloc(n_max);
    english_like_text(text, n_max, lab_bits(lab.seed, 1, 0));
    int stopped = 0;  /* the runner failed (it said why): no further calls */
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time && !stopped; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        unsigned want = count(text, n);
        /* The largest sizes three times: a lost update between blocks need not happen on every run. */
        for (int run = 0; run < (k >= last - 1 ? 3 : 1); run++) {
            unsigned got;
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
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: the count checked after each, the text a little different each time. */
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    unsigned char *dev_text = (unsigned char *)lab_shared(&lab, n_max);
    unsigned *words = (unsigned *)lab_shared(&lab, sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(dev_text, text, n_max, cudaMemcpyHostToDevice));
    unsigned want = count(text, n_max);
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
    unsigned long long draw = 0;
    while (lab_clock_next(&clock)) {
        unsigned before = want;
        for (int k = 0; k < CHANGES || want == before; k++, draw++) {
            long long i = (long long)(lab_bits(lab.seed, 3, draw) % (unsigned long long)n_max);
            change_byte(text, dev_text, n_max, i, (unsigned char)lab_bits(lab.seed, 4, draw), &want);
        }
        lab_poison(words, sizeof(unsigned));
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        unsigned got = lab_sample_uint(&s, 0);
        char what[48];
        snprintf(what, sizeof what, "timed run %d, words", clock.run + 1);
        if (lab_check_uints(&lab, what, &got, &want, 1, 0)) {
            if (got == before)
                lab_hint(&lab, "the count is the run's before, although the text changed since: each run must "
                               "count the text it is given");
            break;
        }
    }
    if (!lab.failures) {
        printf("  every timed run's count was right, with %d or more bytes of the text changed before each run\n",
               CHANGES);
        lab_report(&lab, lab_clock_stats(&lab, &clock), (double)n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(text);
    return lab_end(&lab);
}
