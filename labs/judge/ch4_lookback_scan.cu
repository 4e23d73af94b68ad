/* ch4_lookback_scan's judge: the student's single-pass scan against the CPU's, exactly, at sizes of one
 * tile or less, a tile and one more, primes that cross many tiles, and 10^8 (24,415 tiles); at one size
 * twice in a row, since state a file keeps of its own (a __device__ counter never reset) shows at the
 * second call. The status words and the counter are poisoned before every call, as the statement says
 * they may hold anything. Then timed against CUB's DeviceScan::InclusiveSum of the same array on the
 * same GPU: before each run the output, the status words and the counter are poisoned, and after it a
 * fresh sample of the output (with its last element, where a tile that no block took shows) is
 * checked. */
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include "libraries.h"

#define TILE 4096  /* the statement's: elements a block scans, one status word each */

/* The tile where the first wrong element is, and how it is wrong: a hint for each known signature. */
static void hint_scan(struct lab *lab, const unsigned *got, const unsigned *want, long long n)
{
    long long first = 0;
    while (first < n && got[first] == want[first])
        first++;
    if (first == n)
        return;
    long long tile = first / TILE, start = tile * TILE, end = start + TILE < n ? start + TILE : n;
    int poisoned = 1, same_offset = 1;
    long long offset = (long long)(int)got[first] - (long long)(int)want[first];
    for (long long i = first; i < end; i++) {
        poisoned &= got[i] == 0xffffffffu;
        same_offset &= (long long)(int)got[i] - (long long)(int)want[i] == offset;
    }
    if (poisoned && end == n && start > 0)
        lab_hint(lab, "the last tile (elements %lld to %lld) was never written, and the tiles before it were: a tile "
                      "no block took? The counter must be 0 when the kernel starts, at every call", start, n - 1);
    else if (poisoned)
        lab_hint(lab, "tile %lld (from element %lld) was never written: does every block take a tile, and write "
                      "every element of it below n?", tile, start);
    else if (tile == 0 || !same_offset)
        lab_hint(lab, "tile %lld is wrong inside, not only by what comes before it: look at the scan within a tile "
                      "(each thread's 16 elements, then the threads' sums across the block)", tile);
    else if (offset < 0)
        lab_hint(lab, "every element of tile %lld is short by %lld, the same amount: its look-back missed part of "
                      "the tiles before it (an AGGREGATE is added and the walk goes on; only a PREFIX ends it, and a "
                      "PREFIX holds everything up to and including its tile)", tile, -offset);
    else
        lab_hint(lab, "every element of tile %lld has %lld too much, the same amount: did its look-back count a "
                      "tile twice, or its own sum?", tile, offset);
}

/* One call at size n, checked; `what` names it, `again` says it is the second at this size. 1: it failed
 * (and said why). */
static int check_call(struct lab *lab, const char *what, int again, const unsigned *values, const unsigned *want,
                      unsigned *got, long long n)
{
    struct lab_call c;
    lab_call_start(&c);
    lab_in(&c, values, n * sizeof(int));
    lab_out(&c, NULL, got, n * sizeof(int));
    lab_int(&c, n);
    lab_scratch(&c, (n + TILE - 1) / TILE * sizeof(unsigned long long));  /* status: garbage on entry */
    lab_scratch(&c, sizeof(unsigned));                                     /* counter: garbage too */
    if (lab_run(lab, &c))
        return 1;
    if (lab_check_uints(lab, what, got, want, n, 0)) {
        if (again)
            lab_hint(lab, "the first call at this size was right and the second was not: something your code relies "
                          "on was left over by the call before (a counter of your own, not reset?)");
        hint_scan(lab, got, want, n);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_lookback_scan: a single-pass scan with decoupled look-back", &reps);
    /* 1 and 2; a warp; a tile less one, a tile, a tile and one; primes of 17, 32 and 245 tiles; the timed
     * size, 24,415 tiles. 1000003 is called twice. */
    const long long sizes[] = {1, 2, 31, TILE - 1, TILE, TILE + 1, 65537, 131071, 1000003, 100000000};
    const long long twice = 1000003, n_max = sizes[COUNT_OF(sizes) - 1];
    unsigned *values = (unsigned *)host_alloc(n_max * sizeof(int)), *want = (unsigned *)host_alloc(n_max * sizeof(int));
    unsigned *got = (unsigned *)host_alloc(n_max * sizeof(int));
    /* 0 to 7: every tile's sum differs, and 10^8 of them sum to at most 7 x 10^8, below 2^31; no sum is
     * 0xffffffff, the poison. */
    unsigned running = 0;
    for (long long i = 0; i < n_max; i++) {
        values[i] = (unsigned)(lab_bits(lab.seed, 1, i) % 8);
        want[i] = running += values[i];
    }
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        char what[64];
        snprintf(what, sizeof what, "n = %lld (%lld tiles)", n, (n + TILE - 1) / TILE);
        if (check_call(&lab, what, 0, values, want, got, n))
            break;
        snprintf(what, sizeof what, "n = %lld again (a second call)", n);
        if (n == twice && check_call(&lab, what, 1, values, want, got, n))
            break;
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The limit: CUB's scan of the same array, in memory of the judge's own. */
    size_t bytes = n_max * sizeof(int), status_bytes = (n_max + TILE - 1) / TILE * sizeof(unsigned long long);
    int *own = (int *)lab_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(own, values, bytes, cudaMemcpyHostToDevice));
    struct stats cub = cub_scan_time(own, n_max, reps);
    CUDA_CHECK(cudaFree(own));
    print_bandwidth("cub", "cub::DeviceScan::InclusiveSum", cub, 8.0 * n_max, 0, "");

    /* The timed runs: the output, the status words and the counter poisoned before each. */
    int *in = (int *)lab_shared(&lab, bytes), *out = (int *)lab_shared(&lab, bytes);
    unsigned long long *status = (unsigned long long *)lab_shared(&lab, status_bytes);
    unsigned *counter = (unsigned *)lab_shared(&lab, sizeof(unsigned));
    CUDA_CHECK(cudaMemcpy(in, values, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, n_max);
    lab_use(&c, status);
    lab_use(&c, counter);
    static struct lab_sample s;
    s.output = out, s.size = 4, s.n = n_max;
    static unsigned sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        lab_poison(out, bytes);
        lab_poison(status, status_bytes);
        lab_poison(counter, sizeof(unsigned));
        lab_sample_add(&s, n_max - 1);  /* the last tile: the one a counter that did not start at 0 skips */
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            sample_got[k] = lab_sample_uint(&s, k);
            sample_want[k] = want[s.index[k]];
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_sample_uints(&lab, what, &s, sample_got, sample_want, 0))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run, and the last\n",
               s.count - 1);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", 8.0 * n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    free(values), free(want), free(got);
    return lab_end(&lab);
}
