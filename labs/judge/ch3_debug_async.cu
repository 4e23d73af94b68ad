/* ch3_debug_async's judge: lab_gain_clip, a gain applied to a window of n samples (apply_gain, float4 loads)
 * and the result clipped to [-1, 1] (clip), on the runner's stream. Each call's window starts `offset`
 * floats past the start of the runner's cudaMalloc: offset is drawn below 64 for the call, its remainder by
 * 4 set for each size, so that every remainder, 0 (a window on a 16-byte boundary) to 3, comes among the
 * small sizes, which compute-sanitizer runs too; the floats before the window are NaN, so that a read
 * before in shows. out must hold every sample's gain times it, rounded once, then clipped: exactly.
 * The file as handed out reads (const float4 *)in, right where in is on a 16-byte boundary and the
 * window too short for a float4: it passes the first sizes, then faults at n = 7 (remainder 3), and the
 * GPU's error, cudaErrorMisalignedAddress, is sticky: the runner's wait after the call reports it
 * (labs/judge/channel.c), the judge says which call it stopped and hints at the address (lab.cuda_error).
 * Not timed (lab_untimed): the lesson is where an asynchronous error is reported, and the results are the
 * whole grade. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { IN_STREAM = 1, GAIN_STREAM, OFFSET_STREAM };  /* a call's seed's streams */
#define IN_LOW -1.0f  /* the samples: both signs, a fair share of them clipped once the gain is over 1 */
#define IN_HIGH 1.0f
#define GAIN_LOW 0.5f
#define GAIN_HIGH 2.0f
enum { OFFSETS = 64 };  /* a window starts below 64 floats (256 bytes) past its cudaMalloc */

/* The calls: {n, offset % 4}. The first three pass with float4 loads from in itself (a window too short
 * for one, or on a 16-byte boundary); n = 1 at remainder 1 is a head (three samples to the boundary) longer
 * than the window; every remainder comes with a tail of 1 to 3 samples. */
static const long long calls[][2] = {{1, 1},     {3, 2},       {6, 0},         {7, 3},
                                     {33, 1},    {1025, 2},    {65537, 3},     {1000003, 1},
                                     {(1LL << 24) + 3, 2}};

static float clipped(float v)
{
    return v > 1.0f ? 1.0f : v < -1.0f ? -1.0f : v;
}

/* After a CUDA error: which call it stopped, and, for a misaligned address, where to look. */
static void say_stopped(struct lab *lab, const char *what, int offset)
{
    printf("  %s: the call that was running when the error came\n", what);
    if (strstr(lab->cuda_error, "cudaErrorMisalignedAddress"))
        lab_hint(lab, "cudaErrorMisalignedAddress: a load or store whose address is not a multiple of its size. "
                      "Here in was %d floats past a 256-byte boundary, %d bytes past a 16-byte one, and a float4 "
                      "(16 bytes) read from in + 4 t is as far past one. The check your file printed (the line "
                      "after \" | \") is where the error was noticed, a wait after both launches; step 2's "
                      "memcheck names the kernel's line", offset, offset % 4 * 4);
}

/* After wrong samples: all of them before in's first 16-byte boundary (the head). lab.c says the rest (the
 * poison left, only the last ones wrong). */
static void hint_head(struct lab *lab, const float *got, const float *want, long long n, int offset)
{
    long long head = (4 - offset % 4) % 4, wrong = 0, in_head = 0;
    for (long long i = 0; i < n; i++)
        if (!(got[i] == want[i])) {  /* NaN is wrong */
            wrong++;
            in_head += i < head;
        }
    if (wrong > 0 && wrong == in_head)
        lab_hint(lab, "only the samples before in's first 16-byte boundary are wrong (the head, %lld of them "
                      "here): each is one sample, done alone", head < n ? head : n);
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_debug_async: a kernel's fault that a later call reports", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lab is judged on its results alone, checked in step 1");
        return lab_end(&lab);
    }
    const long long n_max = calls[COUNT_OF(calls) - 1][0];
    float *window = (float *)host_alloc((OFFSETS + n_max) * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(calls); k++)
        big += calls[k][0] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);  /* --small: the small sizes, and one of the larger drawn for this grade */
    for (int k = 0; k < COUNT_OF(calls); k++) {
        long long n = calls[k][0];
        if (lab_skip(&lab, n))
            continue;
        unsigned long long s = lab_fresh(&lab);
        int offset = 4 * (int)lab_below(s, OFFSET_STREAM, 0, OFFSETS / 4) + (int)calls[k][1];
        float gain = lab_value(s, GAIN_STREAM, 0, GAIN_LOW, GAIN_HIGH);
        for (int i = 0; i < offset; i++)
            window[i] = NAN;  /* before the window: a sample read from here is NaN */
        for (long long i = 0; i < n; i++) {
            float sample = lab_value(s, IN_STREAM, (unsigned long long)i, IN_LOW, IN_HIGH);
            window[offset + i] = sample;
            want[i] = clipped(gain * sample);
        }
        /* lab_gain_clip(buffer + offset, out, n, gain, stream): the stub adds the offset. */
        struct lab_call c;
        lab_call_start(&c);
        lab_in(&c, window, (offset + n) * sizeof(float));
        lab_int(&c, offset);
        lab_out(&c, NULL, got, n * sizeof(float));
        lab_int(&c, n);
        lab_float(&c, gain);
        char what[96];
        snprintf(what, sizeof what, "n = %lld, in %d floats past a 256-byte boundary", n, offset);
        if (lab_run(&lab, &c)) {
            if (lab.cuda_error[0])
                say_stopped(&lab, what, offset);
            break;
        }
        if (lab_check_floats(&lab, what, got, want, n, 0, 0, "one multiply, rounded as on the CPU, then clipped"))
            hint_head(&lab, got, want, n, offset);
    }
    free(window), free(want), free(got);
    return lab_end(&lab);
}
