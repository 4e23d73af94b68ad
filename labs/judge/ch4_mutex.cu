/* ch4_mutex's judge: the student's lock, unlock and merge, under the statement's launch of 32 blocks per
 * SM, every one of which merges its summary into *total, whatever n is: thousands of lock takers at about
 * the same time. The summary (how many values, the largest, where it is) is compared with the CPU's
 * exactly. A lost update shows as a count short of n; it need not happen in every run, so each size of a
 * million values or more runs three times where no sanitizer runs. Every call's values are drawn afresh
 * (lab_fresh), over the statement's range, 1 to 2^32 - 1 (make_values).
 * compute-sanitizer's racecheck sees shared memory only, and the lock and *total are in global memory: a
 * race there shows here, in the counts, never in step 2.
 * Not timed (lab_untimed): the lesson is being right under contention, and a lock's hand-over costs what
 * it costs. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

/* The statement's summary, field for field: the runner sends its bytes back. */
struct summary {
    unsigned long long count, where;
    unsigned max;
};

enum { VALUE_STREAM = 1, TOP_STREAM = 2 };
/* A call's values lie in the SPREAD levels up to its largest possible, `top`: at 2^24 values the
 * largest comes about 17 times (2^24 / SPREAD), so that "the smallest index of the largest" is put to the test. */
#define SPREAD 1000000u

/* A call's values, made on the GPU (quicker than the CPU at 2^24) and read back by the judge. */
__global__ void make_values(unsigned *values, long long n, unsigned long long seed, unsigned top)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        values[i] = top - lab_below(seed, VALUE_STREAM, (unsigned long long)i, SPREAD);
}

/* A call's top, from SPREAD to 2^32 - 1: in about half of the calls any of them (the largest bit set in
 * half of those), in the others one below about 2^(32 - k), k from 1 to 31 as often each: its values, from
 * top - SPREAD + 1 to top, reach the whole range of 1 or more that the statement's unsigned values have,
 * small and large. */
static unsigned top_of(unsigned long long seed)
{
    unsigned long long r = lab_bits(seed, TOP_STREAM, 0);
    unsigned long long room = 0x100000000ull - SPREAD;  /* the tops above SPREAD - 1 */
    unsigned shift = (unsigned)(r & 63);
    if (shift > 31)
        shift = 0;
    return SPREAD + (unsigned)((r >> 6) % (room >> shift));
}

static struct summary summarize(const unsigned *values, long long n)
{
    struct summary s = {0, 0, 0};
    for (long long i = 0; i < n; i++)
        if (values[i] > s.max)
            s.max = values[i], s.where = (unsigned long long)i;
    s.count = (unsigned long long)n;
    return s;
}

/* Compares one run's summary with the CPU's and says what is wrong; 1 if it is. */
static int check(struct lab *lab, const char *what, const struct summary *got, const struct summary *want)
{
    if (got->count == want->count && got->max == want->max && got->where == want->where) {
        printf("  %s: PASS (%llu values, the largest %u at index %llu)\n", what, got->count, got->max, got->where);
        return 0;
    }
    lab->failures++;
    printf("  %s: FAIL, count %llu, largest %u at index %llu; expected count %llu, largest %u at index %llu\n", what,
           got->count, got->max, got->where, want->count, want->max, want->where);
    if (got->count == ~0ull)
        lab_hint(lab, "*total still holds the poison it was filled with: the launch zeroes it, so something wrote "
                      "over it, or the kernel did not run");
    else if (got->count == 0)
        lab_hint(lab, "nothing was merged into *total: merge must take the lock, combine *total with the block's "
                      "summary, write it back and give the lock back");
    else if (got->count < want->count)
        lab_hint(lab, "counts were lost (%llu of %llu values): two blocks changed *total at once, and one "
                      "wrote over the other. Does lock() spin until its atomicCAS finds the lock free (0)? Does "
                      "merge read *total only after it holds the lock, and write it before it gives it back?",
                 got->count, want->count);
    else if (got->count > want->count)
        lab_hint(lab, "more values counted than there are: a block's summary was merged more than once");
    else if (got->max == want->max)
        lab_hint(lab, "the count and the largest value are right, its index is not: of equal values the one "
                      "with the smallest index is kept (combine does that; is every merge made through it?)");
    else
        lab_hint(lab, "the count is right, the largest value is not: the largest value and its index must come "
                      "from one combine, under the lock");
    return 1;
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_mutex: a lock from atomicCAS around a summary of three fields", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lesson is a lock that is right under contention; its hand-over costs what it costs");
        return lab_end(&lab);
    }
    /* 1 to 1025 leave most of the blocks empty (they merge all the same); 1000003 and 2^24 + 7 give every
     * block values, so all of them reach the lock within microseconds of one another. */
    const long long sizes[] = {1, 31, 32, 33, 255, 257, 1025, 100003, 1000003, (1LL << 24) + 7};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned *values = (unsigned *)host_alloc(n_max * sizeof(unsigned));
    unsigned *dev_values = (unsigned *)lab_device_alloc(n_max * sizeof(unsigned));
    lab_big_sizes(&lab, 2);  /* 1000003 and 2^24 + 7 */
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        /* Three runs where every block has values, each on values of its own: a race need not lose an
         * update every time. Once under a sanitizer, which is slow and looks for other things. */
        int runs = n >= 1000000 && !lab.small ? 3 : 1, stopped = 0, failed = 0;
        for (int r = 0; r < runs && !failed; r++) {
            unsigned long long seed = lab_fresh(&lab);
            long long blocks = ceil_div(n, 256);
            make_values<<<(int)(blocks < 4096 ? blocks : 4096), 256>>>(dev_values, n, seed, top_of(seed));
            CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(values, dev_values, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
            struct summary want = summarize(values, n);
            struct summary got;
            struct lab_call c;
            lab_call_start(&c);
            lab_in(&c, values, n * sizeof(unsigned));
            lab_int(&c, n);
            lab_out(&c, NULL, &got, sizeof got);  /* poisoned: the launch zeroes it */
            lab_scratch(&c, sizeof(int));          /* the lock, poisoned: the launch frees it */
            lab_int(&c, lab.dev.sms);
            if ((stopped = lab_run(&lab, &c)))
                break;
            /* The launch is fixed: one kernel, summarize, whose blocks merge under the lock (the runner
             * counts the kernels a call launches). A second kernel that combines per-block slots is no lock. */
            if (lab.launches != 1) {
                printf("  n = %lld: FAIL, your lab_summarize launched %d kernels; the launch is fixed: one kernel, "
                       "summarize, whose blocks merge under the lock\n", n, lab.launches);
                lab.failures++;
                stopped = 1;
                break;
            }
            char what[64];
            if (runs > 1)
                snprintf(what, sizeof what, "n = %lld, run %d of %d", n, r + 1, runs);
            else
                snprintf(what, sizeof what, "n = %lld", n);
            failed = check(&lab, what, &got, &want);
        }
        if (stopped)
            break;
    }
    CUDA_CHECK(cudaFree(dev_values));
    free(values);
    return lab_end(&lab);
}
