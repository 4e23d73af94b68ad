/* ch1_block_index's judge: the student's whoami under the statement's launch (blocks of 64) at sizes around
 * a block, at primes and past 2^26, then timed at the largest against the copy bandwidth. There is no
 * input: the answer is the launch's own shape, so both outputs are poisoned before every call, timed
 * runs included, and a fresh sample of each is checked after against the index it sits at. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { THREADS = 64 };  /* the statement's block size */
#define POISON 0xffffffffu

/* 1, around a block, a few blocks with a partial last one, primes; the last is timed. */
static const int sizes[] = {1, 63, 64, 65, 1000, 4099, 100003, (1 << 26) + 1};

/* What the first wrong element says about the index, when both of its values were written. */
static void hint_at_first_wrong(struct lab *lab, const unsigned *block_of, const unsigned *thread_of, int n)
{
    unsigned blocks = (n + THREADS - 1) / THREADS;
    for (int i = 0; i < n; i++) {
        unsigned b = block_of[i], t = thread_of[i], want_b = i / THREADS, want_t = i % THREADS;
        if (b == want_b && t == want_t)
            continue;
        if (b == POISON || t == POISON)
            return;  /* never written: lab_check_uints said so */
        if (b != want_b && b == THREADS)
            lab_hint(lab, "element %d's block_of is 64, the size of a block (blockDim.x); the index of the block "
                          "is blockIdx.x", i);
        else if (b != want_b && b == blocks)
            lab_hint(lab, "element %d's block_of is %u, the number of blocks (gridDim.x); the index of the block "
                          "is blockIdx.x", i, blocks);
        else if (t == (unsigned)i && i >= THREADS)
            lab_hint(lab, "element %d's thread_of is %d, its global index; threadIdx.x is the place in the block, "
                          "0 to 63", i, i);
        else if ((unsigned long long)b * THREADS + t != (unsigned long long)i)
            lab_hint(lab, "element %d was written by thread %u of block %u, whose global index is %u * 64 + %u = "
                          "%llu: the blocks before a thread's hold blockIdx.x * blockDim.x threads (blockDim.x is "
                          "64 here)", i, t, b, b, t, (unsigned long long)b * THREADS + t);
        return;
    }
}

/* Every size, both outputs checked whole. */
static void check_sizes(struct lab *lab)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(unsigned);
    unsigned *want_block = (unsigned *)host_alloc(bytes), *want_thread = (unsigned *)host_alloc(bytes);
    unsigned *block_of = (unsigned *)host_alloc(bytes), *thread_of = (unsigned *)host_alloc(bytes);
    for (int i = 0; i < n_max; i++) {
        want_block[i] = i / THREADS;
        want_thread[i] = i % THREADS;
    }
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        int n = sizes[k];
        if (lab_skip(lab, n))
            continue;
        struct lab_call c;
        lab_call_start(&c);
        lab_out(&c, NULL, block_of, n * sizeof(unsigned));
        lab_out(&c, NULL, thread_of, n * sizeof(unsigned));
        lab_int(&c, n);
        if (lab_run(lab, &c))
            break;
        char what[48];
        snprintf(what, sizeof what, "n = %d, block_of", n);
        int wrong = lab_check_uints(lab, what, block_of, want_block, n, 0);
        snprintf(what, sizeof what, "n = %d, thread_of", n);
        wrong |= lab_check_uints(lab, what, thread_of, want_thread, n, 0);
        if (wrong)
            hint_at_first_wrong(lab, block_of, thread_of, n);
    }
    free(want_block), free(want_thread), free(block_of), free(thread_of);
}

/* The timed runs: both outputs are poisoned before each, and a fresh sample of each is checked after;
 * a sampled element's answer is its index's block and place, so no array of answers is kept. */
static void time_runs(struct lab *lab, int reps)
{
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(unsigned);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    unsigned *d_block = (unsigned *)lab_shared(lab, bytes), *d_thread = (unsigned *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, d_block);
    lab_use(&c, d_thread);
    lab_int(&c, n_max);
    static struct lab_sample s[2];
    static unsigned sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    s[0].output = d_block, s[0].size = 4, s[0].n = n_max;
    s[1].output = d_thread, s[1].size = 4, s[1].n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock) && !lab->failures) {
        lab_poison(d_block, bytes);
        lab_poison(d_thread, bytes);
        lab_sample_draw(lab, &s[0]);
        lab_sample_draw(lab, &s[1]);
        if (lab_timed_call(lab, &clock, &c, s, 2))
            break;
        for (int a = 0; a < 2; a++) {
            for (int k = 0; k < s[a].count; k++) {
                sample_got[k] = lab_sample_uint(&s[a], k);
                sample_want[k] = (unsigned)(a == 0 ? s[a].index[k] / THREADS : s[a].index[k] % THREADS);
            }
            char what[96];
            snprintf(what, sizeof what, "timed run %d, %d sampled elements of %s", clock.run + 1, s[a].count,
                     a == 0 ? "block_of" : "thread_of");
            if (lab_check_uints(lab, what, sample_got, sample_want, s[a].count, 0))
                break;
        }
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d elements of each array drawn afresh each run\n",
               s[0].count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_block_index: each element's block and thread, in blocks of 64", &reps);
    if (!lab.time)
        check_sizes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
