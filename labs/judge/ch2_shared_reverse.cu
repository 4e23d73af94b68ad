/* ch2_shared_reverse's judge: the student's reverse_segments under the statement's launch (a block of 256
 * threads for each segment of 256) at sizes under, at and around a segment, with and without a shorter
 * last segment, then timed past 2^26 elements against the copy bandwidth. in comes from the seed; out is
 * poisoned before every call, so an element no thread wrote shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"

enum { SEGMENT = 256 };  /* the statement's segment, and block */

/* The reference: each segment reversed within its own length. */
static void reverse_on_cpu(const float *in, float *out, int n)
{
    for (int first = 0; first < n; first += SEGMENT) {
        int length = n - first < SEGMENT ? n - first : SEGMENT;
        for (int j = 0; j < length; j++)
            out[first + j] = in[first + length - 1 - j];
    }
}

/* What the first wrong element says: a copy, the whole array reversed, or the short last segment alone wrong. */
static void hint_for(struct lab *lab, const float *got, const float *in, const float *want, int n)
{
    int i = 0;
    while (i < n && got[i] == want[i])
        i++;
    int last_first = (n - 1) / SEGMENT * SEGMENT;
    if (i == n)
        return;
    if (got[i] == in[i])
        lab_hint(lab, "element %d holds in[%d]: copied, not reversed (read the tile at the mirrored place)", i, i);
    else if (got[i] == in[n - 1 - i])
        lab_hint(lab, "element %d holds in[%d], from the other end of the whole array: each block reverses only its "
                      "own segment, from first = blockIdx.x * 256 on", i, n - 1 - i);
    else if (i >= last_first && n % SEGMENT && !isnan(got[i]))
        lab_hint(lab, "every wrong element is in the last segment, which holds only n %% 256 = %d elements: it is "
                      "reversed within them (its first element goes to its own last place, first + length - 1)",
                 n % SEGMENT);
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch2_shared_reverse: segments of 256 reversed through a shared tile", &reps);
    /* Shorter than a segment, around a warp and a segment, whole segments, a short last segment after
     * many whole ones, a prime; the last is timed, and its last segment is short too. */
    const int sizes[] = {1, 31, 32, 255, 256, 257, 512, 1000, 65613, 1000003, (1 << 26) + 77};
    const int n_max = sizes[COUNT_OF(sizes) - 1];
    size_t bytes = (size_t)n_max * sizeof(float);
    float *in = (float *)host_alloc(bytes), *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    for (int i = 0; i < n_max; i++)
        in[i] = lab_uniform(lab.seed, 1, i) + 1.0f;
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        int n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        reverse_on_cpu(in, want, n);
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, in, n * sizeof(float));
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, n);
        if (lab_run(&lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %d", n);
        if (lab_check_floats(&lab, what, got, want, n, 0, 0, "a copy: exact"))
            hint_for(&lab, got, in, want, n);
    }
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The timed runs: out is poisoned before each, and a fresh sample of it is checked after. */
    reverse_on_cpu(in, want, n_max);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *d_in = (float *)lab_shared(&lab, bytes), *d_out = (float *)lab_shared(&lab, bytes);
    CUDA_CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, d_in);
    lab_use(&c, d_out);
    lab_int(&c, n_max);
    static struct lab_sample s;
    static float sample_got[LAB_SAMPLES], sample_want[LAB_SAMPLES];
    s.output = d_out, s.size = 4, s.n = n_max;
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    lab.quiet = 1;
    while (lab_clock_next(&clock)) {
        lab_poison(d_out, bytes);
        lab_sample_draw(&lab, &s);
        if (lab_timed_call(&lab, &clock, &c, &s, 1))
            break;
        for (int k = 0; k < s.count; k++) {
            sample_got[k] = lab_sample_float(&s, k);
            sample_want[k] = want[s.index[k]];
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled elements", clock.run + 1, s.count);
        if (lab_check_floats(&lab, what, sample_got, sample_want, s.count, 0, 0, "a copy: exact"))
            break;
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run\n", s.count);
        lab_report(&lab, lab_clock_stats(&lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
    free(in), free(want), free(got);
    return lab_end(&lab);
}
