/* ch4_lookback_scan's judge: the student's single-pass scan against the CPU's, exactly, at sizes of one
 * tile or less, a tile and one more, primes that cross many tiles, and 10^8 (24,415 tiles); at one size
 * twice in a row, since state a file keeps of its own (a __device__ counter never reset) shows at the
 * second call. The status words and the counter are poisoned before every call, as the statement says
 * they may hold anything. "One kernel" is counted: every call, the timed ones too, must launch exactly
 * one (the runner's wrappers of the launch functions count them, lab.launches); a scan in three passes
 * computes the same sums. Every call's array is new, from a seed of its own (lab_fresh): ints of either
 * sign, as large as the size allows without a sum leaving the int range (|in[i]| <= INT_MAX / n), as the
 * statement promises. Then timed against CUB's DeviceScan::InclusiveSum on the same GPU: before each run
 * the judge writes a new array into in on the GPU (and its tiles' sums into memory of its own), and
 * poisons the output, the status words and the counter; after it a fresh sample of the output (with its
 * last element, where a tile that no block took shows) is checked against sums remade from the tiles'
 * sums and the run's seed. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include "libraries.h"

#define TILE 4096  /* the statement's: elements a block scans, one status word each */
enum { VALUE_STREAM = 1 };

/* ==== The input, and the judge's kernel that writes it ==== */

/* Element i of the array drawn from `seed`: an int in [-most, most]. */
static inline LAB_HOST_DEVICE int value(unsigned long long seed, unsigned long long i, int most)
{
    return (int)((long long)lab_below(seed, VALUE_STREAM, i, 2u * (unsigned)most + 1u) - most);
}

/* The largest value a size allows: n of them, of one sign, add up to INT_MAX at most. */
static int most_for(long long n)
{
    return (int)(INT_MAX / n);
}

/* A timed run's array, written into in from `seed`, and each tile's sum into tile_sums (when given): one
 * block a tile, 256 threads of 16 elements each, the sums added as a tree in shared memory. */
__global__ void write_array(int *in, long long n, unsigned long long seed, int most, long long *tile_sums)
{
    __shared__ long long part[256];
    long long first = blockIdx.x * (long long)TILE, sum = 0;
    for (int j = 0; j < TILE / 256; j++) {
        long long i = first + j * 256 + threadIdx.x;
        if (i < n) {
            int v = value(seed, i, most);
            in[i] = v;
            sum += v;
        }
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0 && tile_sums)
        tile_sums[blockIdx.x] = part[0];
}

/* ==== Checks ==== */

/* The statement's "one kernel" (lab_one_kernel), with this lab's hint. */
static int one_kernel(struct lab *lab, const char *what)
{
    return lab_one_kernel(lab, what, "reset the status words and the counter with cudaMemsetAsync (not a kernel of "
                                     "your own), and let the one kernel do every tile's scan and its look-back: no "
                                     "second pass over the tiles' sums");
}

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
    else  /* (the values have either sign: what was missed or counted twice can be either way) */
        lab_hint(lab, "every element of tile %lld is off by %lld, the same amount: its look-back missed part of the "
                      "tiles before it (an AGGREGATE is added and the walk goes on; only a PREFIX ends it, and a "
                      "PREFIX holds everything up to and including its tile), or counted a tile twice, or its own "
                      "sum", tile, offset);
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
    int quiet = lab->quiet, many = lab->launches != 1;
    lab->quiet = quiet || many;  /* right sums from more than one kernel are no PASS */
    int wrong = lab_check_uints(lab, what, got, want, n, 0);
    lab->quiet = quiet;
    if (wrong) {
        if (again)
            lab_hint(lab, "the first call at this size was right and the second was not: something your code relies "
                          "on was left over by the call before (a counter of your own, not reset?)");
        hint_scan(lab, got, want, n);
    }
    return one_kernel(lab, what) || wrong;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch4_lookback_scan: a single-pass scan with decoupled look-back", &reps);
    /* 1 and 2; a warp; a tile less one, a tile, a tile and one; primes of 17, 32 and 245 tiles; the timed
     * size, 24,415 tiles. 1000003 is called twice. */
    const long long sizes[] = {1, 2, 31, TILE - 1, TILE, TILE + 1, 65537, 131071, 1000003, 100000000};
    const long long twice = 1000003, n_max = sizes[COUNT_OF(sizes) - 1];
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);
    unsigned *values = NULL, *want = NULL, *got = NULL;  /* the checks' arrays; the timed runs need none */
    if (!lab.time) {
        values = (unsigned *)host_alloc(n_max * sizeof(int)), want = (unsigned *)host_alloc(n_max * sizeof(int));
        got = (unsigned *)host_alloc(n_max * sizeof(int));
    }
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        int stopped = 0;
        for (int call = 0; call < (n == twice ? 2 : 1) && !stopped; call++) {
            /* A new array each call, ints up to INT_MAX / n either way: no sum leaves the int range (the CPU
             * adds them as unsigned, the same bits), and no call's sums are another's. */
            unsigned long long seed = lab_fresh(&lab);
            int most = most_for(n);
            unsigned running = 0;
            for (long long i = 0; i < n; i++) {
                values[i] = (unsigned)value(seed, i, most);
                want[i] = running += values[i];
            }
            char what[64];
            if (call == 0)
                snprintf(what, sizeof what, "n = %lld (%lld tiles)", n, (n + TILE - 1) / TILE);
            else
                snprintf(what, sizeof what, "n = %lld again (a second call)", n);
            stopped = check_call(&lab, what, call, values, want, got, n);
        }
        if (stopped)
            break;
    }
    free(values), free(want), free(got);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The limit: CUB's scan of an array of the same kind, in memory of the judge's own. */
    size_t bytes = n_max * sizeof(int), status_bytes = (n_max + TILE - 1) / TILE * sizeof(unsigned long long);
    long long tiles = (n_max + TILE - 1) / TILE;
    int most = most_for(n_max);
    int *own = (int *)lab_device_alloc(bytes);
    write_array<<<(unsigned)tiles, 256>>>(own, n_max, lab_fresh(&lab), most, NULL);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    struct stats cub = cub_scan_time(own, n_max, reps);
    CUDA_CHECK(cudaFree(own));
    print_bandwidth("cub", "cub::DeviceScan::InclusiveSum", cub, 8.0 * n_max, 0, "");

    /* The timed runs: the array written anew, the output, the status words and the counter poisoned
     * before each. The tiles' sums go to memory of the judge's own: the sums before each tile, with the
     * elements of its tile up to a sampled one remade on the CPU, are the sample's reference. */
    int *in = (int *)lab_shared(&lab, bytes), *out = (int *)lab_shared(&lab, bytes);
    unsigned long long *status = (unsigned long long *)lab_shared(&lab, status_bytes);
    unsigned *counter = (unsigned *)lab_shared(&lab, sizeof(unsigned));
    long long *dev_tile_sums = (long long *)lab_device_alloc(tiles * sizeof(long long));
    long long *before = (long long *)host_alloc(tiles * sizeof(long long));  /* the sum of the tiles before */
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
        unsigned long long seed = lab_fresh(&lab);  /* the run's own: the runner never sees it */
        write_array<<<(unsigned)tiles, 256>>>(in, n_max, seed, most, dev_tile_sums);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(before, dev_tile_sums, tiles * sizeof(long long), cudaMemcpyDeviceToHost));
        long long running = 0;
        for (long long t = 0; t < tiles; t++) {
            long long tile_sum = before[t];
            before[t] = running;
            running += tile_sum;
        }
        lab_poison(out, bytes);
        lab_poison(status, status_bytes);
        lab_poison(counter, sizeof(unsigned));
        lab_sample_add(&s, n_max - 1);  /* the last tile: the one a counter that did not start at 0 skips */
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        int launched = one_kernel(&lab, what);
        for (int k = 0; k < s.count; k++) {
            long long i = s.index[k], t = i / TILE;
            long long sum = before[t];
            for (long long j = t * TILE; j <= i; j++)
                sum += value(seed, j, most);
            sample_got[k] = lab_sample_uint(&s, k);
            sample_want[k] = (unsigned)sum;
        }
        if (lab_check_sample_uints(&lab, what, &s, sample_got, sample_want, 0) || launched)
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run, and the last; each run "
               "launched one kernel\n", s.count - 1);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", 8.0 * n_max / (cub.median * 1e-3) / 1e9,
                   "of CUB's speed");
    }
    CUDA_CHECK(cudaFree(dev_tile_sums));
    free(before);
    return lab_end(&lab);
}
