/* ch3_pipeline's judge: the student's pipeline from pinned memory to pinned memory, checked at sizes
 * below, at and past a chunk, then timed against the transfer bound. The pipeline's whole round trip is
 * what counts, and the judge's clock times exactly that: from its request to the runner's answer that
 * every copy and kernel has finished. The copies are the lesson, so the device buffers are checked too:
 * after every call dev_in must hold the input and dev_out the output, chunk c at its own place, as the
 * copies leave them; a kernel run straight on the host's memory, with no copies, leaves them poisoned.
 * Every call's input is new, from a seed of its own (lab_fresh): floats of either sign and of magnitudes
 * from 2^-60 to 2^61, every mantissa bit random. Each timed run starts from poison in both device buffers
 * and in the host output, so that nothing a run left behind can be copied back in place of the next
 * run's work, and the judge writes the host input anew from the run's seed, last; a sample of host_out,
 * dev_in and dev_out, drawn afresh, is checked after it against values remade from that seed. And the
 * input's last change comes after the judge's last message before the call, off the clock: LATE elements
 * at places drawn afresh get new values, and are in the samples. A thread of the file's that copied and
 * computed the input as it landed (an attack of 2026-11-27: started when the output's poison landed, the
 * work done before the clock started) misses them; finding them again means reading all of host_in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

#define CHUNK (1 << 22)  /* the statement's: elements a chunk */

enum { IN_STREAM = 1, LATE_STREAM = 2, LATE = 64 };

/* ==== The input, and the kernel that writes it ==== */

/* Element i of the input drawn from `seed` (and a stream of it): a random sign, an exponent from -60 to 60
 * and 23 random mantissa bits, so that 2x + 1 is never out of range and every bit a copy moves is random. */
static inline LAB_HOST_DEVICE float input_value(unsigned long long seed, unsigned stream, unsigned long long i)
{
    unsigned long long r = lab_bits(seed, stream, i);
    unsigned exponent = 127 - 60 + (unsigned)((r >> 32) % 121);
    unsigned bits = (unsigned)(r >> 63) << 31 | exponent << 23 | ((unsigned)r & 0x7fffffu);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* A timed run's input, written by the judge into the host memory it shares with the runner (mapped here:
 * `in` is its address on the GPU). */
__global__ void write_input(float *in, long long n, unsigned long long seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        in[i] = input_value(seed, IN_STREAM, i);
}

/* out = scale_shift(in): the statement's kernel, on the CPU, in the same float arithmetic. */
static float scale_shift(float x)
{
    return 2.0f * x + 1.0f;
}

/* ==== The input's last change ==== */

/* LATE elements of a timed run's input, one in each LATE-th of it, at places drawn from the run's seed, and
 * their new values: written by the judge's CPU between its last message and the call (lab_clock's late). */
static struct late {
    volatile float *host_in;
    long long at[LATE];
    float value[LATE];
} late;

static void draw_late(long long n, unsigned long long seed)
{
    for (int k = 0; k < LATE; k++) {
        long long first = n * k / LATE, next = n * (k + 1) / LATE;
        late.at[k] = first + (long long)(lab_bits(seed, LATE_STREAM, 2 * k) % (unsigned long long)(next - first));
        late.value[k] = input_value(seed, LATE_STREAM, 2 * k + 1);
    }
}

static void change_late(void *unused)
{
    (void)unused;
    for (int k = 0; k < LATE; k++)
        late.host_in[late.at[k]] = late.value[k];
}

/* Element i of a timed run's input, its last change made. */
static float input_at(unsigned long long seed, long long i)
{
    for (int k = 0; k < LATE; k++)
        if (late.at[k] == i)
            return late.value[k];
    return input_value(seed, IN_STREAM, i);
}

/* ==== The device buffers' check ==== */

/* Said when dev_in or dev_out does not hold what the copies leave there. */
static void hint_copies(struct lab *lab)
{
    lab_hint(lab, "the chunks did not pass through the device buffers: copy them. Each chunk goes to dev_in by "
                  "cudaMemcpyAsync, through scale_shift into dev_out, and back, at its own place (elements c * "
                  "CHUNK on), on its stream");
}

/* After a right output: dev (dev_in or dev_out, read back) against what the copies leave there, want,
 * within tolerance (0: exact). 1 if it is not: the chunks did not pass through the device buffers. */
static int check_device(struct lab *lab, const char *what, const char *name, const float *dev, const float *want,
                        long long n, double tolerance)
{
    long long wrong = 0, first = -1, poisoned = 0;
    for (long long i = 0; i < n; i++) {
        double error = fabs((double)dev[i] - want[i]);
        if (!(error <= tolerance * fabs((double)want[i]))) {  /* NaN (poison) is wrong */
            first = first < 0 ? i : first;
            wrong++;
            poisoned += isnan(dev[i]);
        }
    }
    if (!wrong)
        return 0;
    if (lab->failures >= 3) {  /* three full reports say enough, as lab.c's checks do */
        printf("  %s: FAIL, %s holds %lld of %lld elements that are not what the copies put there\n", what, name,
               wrong, n);
        lab->failures++;
        return 1;
    }
    printf("  %s: FAIL, %s holds %lld of %lld elements that are not what the copies put there; first: element %lld, "
           "expected %.9g, got %.9g%s\n", what, name, wrong, n, first, want[first], dev[first],
           poisoned == wrong ? " (the poison it was filled with)" : "");
    hint_copies(lab);
    lab->failures++;
    return 1;
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 11;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_pipeline: copy in, compute and copy out, overlapped on streams", &reps);
    /* Far below a chunk: one element, around a warp and a block, a prime; one chunk and one past it; a
     * short last chunk; then the timed size, 32 chunks and one element: 8 rounds of the 4 streams, and
     * a last chunk of 1. */
    const long long sizes[] = {1, 33, 1025, 1000003, CHUNK, CHUNK + 1, 5LL * CHUNK + 12345, 32LL * CHUNK + 1};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    int big = 0;
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);
    size_t bytes = n_max * sizeof(float);
    /* The checks' arrays: the input, the output it must give, and what came back (the output, and dev_in
     * and dev_out after the call). The timed runs need only got, for their samples. */
    float *in = NULL, *want = NULL, *got = (float *)host_alloc(bytes), *got_in = NULL, *got_out = NULL;
    if (!lab.time) {
        in = (float *)host_alloc(bytes), want = (float *)host_alloc(bytes);
        got_in = (float *)host_alloc(bytes), got_out = (float *)host_alloc(bytes);
    }
    /* One multiply and one add, each rounded once (or one fused multiply-add): 2 roundings. */
    const char *rounded = "a multiply and an add, each rounded";
    for (int k = 0; k < COUNT_OF(sizes) && !lab.time; k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        unsigned long long seed = lab_fresh(&lab);
        for (long long i = 0; i < n; i++) {
            in[i] = input_value(seed, IN_STREAM, i);
            want[i] = scale_shift(in[i]);
        }
        /* host_in and host_out pinned; dev_in and dev_out poisoned on the GPU, and read back after. */
        struct lab_call c;
        lab_call_start(&c);
        lab_host_in(&c, in, n * sizeof(float));
        lab_host_out(&c, got, n * sizeof(float));
        lab_int(&c, n);
        lab_out(&c, NULL, got_in, n * sizeof(float));
        lab_out(&c, NULL, got_out, n * sizeof(float));
        if (lab_run(&lab, &c))
            break;
        char what[32];
        snprintf(what, sizeof what, "n = %lld", n);
        if (!lab_check_floats(&lab, what, got, want, n, 0, 2 * FLOAT_ROUNDING, rounded) &&
            !check_device(&lab, what, "dev_in", got_in, in, n, 0.0))
            check_device(&lab, what, "dev_out", got_out, want, n, 2 * FLOAT_ROUNDING);
    }
    free(in), free(want), free(got_in), free(got_out);
    if (!lab.time || lab.failures)
        return lab_end(&lab);

    /* The transfer bound: in and out cross the host link once each; with a copy engine each way they can
     * overlap, so the larger of the two times is the least the round trip can take. */
    double h2d = measure_transfer_bandwidth(bytes, 1, 1), d2h = measure_transfer_bandwidth(bytes, 0, 1);
    double bound_gbs = bytes / (bytes / h2d > bytes / d2h ? bytes / h2d : bytes / d2h);
    printf("  host link: %.1f GB/s in, %.1f GB/s out (pinned, measured now)\n", h2d, d2h);

    /* The timed runs' buffers: host memory the runner pins (host_in mapped here too, for the judge's
     * kernel that writes it), device memory the runner allocated. */
    float *host_in = (float *)lab_shared_host(&lab, bytes), *host_out = (float *)lab_shared_host(&lab, bytes);
    float *dev_in = (float *)lab_shared(&lab, bytes), *dev_out = (float *)lab_shared(&lab, bytes);
    float *host_in_on_gpu;
    CUDA_CHECK(cudaHostRegister(host_in, bytes, cudaHostRegisterMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&host_in_on_gpu, host_in, 0));
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, host_in);
    lab_use(&c, host_out);
    lab_int(&c, n_max);
    lab_use(&c, dev_in);
    lab_use(&c, dev_out);
    /* The samples: host_out, and the device buffers the copies went through. */
    static struct lab_sample s[3];
    static float sample_want[LAB_SAMPLES];
    s[0].output = host_out, s[1].output = dev_in, s[2].output = dev_out;
    for (int j = 0; j < 3; j++)
        s[j].size = 4, s[j].n = n_max;
    const char *names[3] = {"host_out", "dev_in", "dev_out"};  /* (the first is not named: the output) */
    struct lab_clock clock;
    lab_clock_start(&lab, &clock, reps);
    late.host_in = host_in;
    clock.late = change_late;
    lab.quiet = 1;
    int stopped = 0;
    while (!stopped && lab_clock_next(&clock)) {
        /* host_out and both device buffers get the poison again. host_in is the student's to read only,
         * but a run that wrote it could leave its answers there for the next: every element is written
         * anew each run, from the run's own seed, which the runner never sees, after everything else the
         * judge does before the call; its last change (draw_late) comes later still, and is sampled. */
        unsigned long long seed = lab_fresh(&lab);
        memset(host_out, LAB_POISON_BYTE, bytes);
        lab_poison(dev_in, bytes);
        lab_poison(dev_out, bytes);
        draw_late(n_max, seed);
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < LATE; k++)
                lab_sample_add(&s[j], late.at[k]);
            lab_sample_draw(&lab, &s[j]);
        }
        write_input<<<4096, 256>>>(host_in_on_gpu, n_max, seed);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        if (lab_timed_call(&lab, &clock, &c, s, 3))
            break;
        for (int j = 0; j < 3 && !stopped; j++) {
            for (int k = 0; k < s[j].count; k++) {
                float x = input_at(seed, s[j].index[k]);
                got[k] = lab_sample_float(&s[j], k);
                sample_want[k] = j == 1 ? x : scale_shift(x);
            }
            char what[96];
            snprintf(what, sizeof what, "timed run %d, %d sampled elements%s%s", clock.run + 1, s[j].count,
                     j ? " of " : "", j ? names[j] : "");
            stopped = lab_check_sample_floats(&lab, what, &s[j], got, sample_want, 0,
                                              j == 1 ? 0.0 : 2 * FLOAT_ROUNDING, j == 1 ? "a copy: exact" : rounded);
            if (stopped && j > 0)
                hint_copies(&lab);
        }
    }
    if (!lab.failures) {
        printf("  every timed run's output was right on %d elements drawn afresh each run (%d of them changed "
               "after the judge's last message before the call), and dev_in and dev_out on as many\n", s[0].count,
               LATE);
        struct stats ms = lab_clock_stats(&lab, &clock);
        lab_report(&lab, ms, (double)bytes, "GB/s", bound_gbs, "of the transfer bound (per direction)");
        /* No faster than every copy in, then every copy out, where two copy engines could overlap them:
         * the common mistake, one stream for every chunk (or a wait after each). */
        double serial_gbs = bytes / (bytes / h2d + bytes / d2h);
        if (lab.dev.copy_engines >= 2 && bytes / (ms.median * 1e-3) / 1e9 < 1.1 * serial_gbs)
            lab_hint(&lab, "the copies in and out did not overlap: %.1f GB/s is no faster than copying every chunk in, "
                           "then every chunk out (%.1f GB/s), as if all ran on one stream or the host waited after "
                           "each chunk. Give chunk c the stream streams[c %% STREAMS], and queue every chunk "
                           "before any wait",
                     bytes / (ms.median * 1e-3) / 1e9, serial_gbs);
    }
    CUDA_CHECK(cudaHostUnregister(host_in));
    free(got);
    return lab_end(&lab);
}
