/* ch2_dynamic_shared's judge: the student's rotate_tiles, each block's tile rotated left in place through
 * dynamic shared memory, at tiles on both sides of the 48 KiB a launch takes without the opt-in and at the
 * most this GPU lets a block have, which the judge reads (cudaDevAttrMaxSharedMemoryPerBlockOptin: 64 KiB
 * on a T4, 227 KiB on an H200), never a figure of its own. data is drawn afresh for every call, any finite
 * float, every bit drawn, so that the rotation must keep every bit; a tile left as it was, or rotated the
 * other way, shows. A launch refused past 48 KiB (no opt-in: cudaErrorInvalidValue, not sticky) and a
 * kernel that reached past the shared memory its launch gave (a sticky error) stop the call: the report
 * says which of the runner's calls found the error (channel.c), the hint what it most often means, and
 * memcheck, in step 2, names the line of an access past the tile.
 * Not timed (lab_untimed): the lesson is the launch's shared memory, and the results are the whole grade. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { DATA_STREAM = 1, SHIFT_STREAM, TILE_STREAM };  /* a call's seed's streams */
/* The shared memory a launch takes without the opt-in, in bytes: 48 KiB (and the most of a static array). */
enum { WITHOUT_OPT_IN = 48 * 1024 };
/* The most shared memory a block may have at compute capability 7.5, the oldest the course builds for, in
 * floats: 64 KiB. */
enum { TURING_TILE = 16384 };
/* A tile the GPU sets or the call draws: the most a block may have; one drawn past 48 KiB, up to that;
 * one drawn from 2 floats up to 48 KiB. */
enum { TILE_MAX = -1, TILE_PAST = -2, TILE_WITHIN = -3 };
enum { TWICE_MAX = -1 };  /* an n: two of the largest tiles, and 7 more */

/* The calls, {n, tile}: one element; tiles shorter than, as long as and longer than a block, each with a
 * short last tile; the most a launch takes without the opt-in, and one float more; Turing's most (64 KiB:
 * every GPU the course builds for has it); this GPU's most; tiles drawn on either side of 48 KiB; many
 * blocks. The sizes up to LAB_SMALL_ELEMENTS, the largest tile among them, run under the sanitizer too. */
static const int calls[][2] = {{1, 1},
                               {5, 3},
                               {1000, 256},
                               {1000, 300},
                               {2 * (WITHOUT_OPT_IN / 4) + 1, WITHOUT_OPT_IN / 4},
                               {3 * (WITHOUT_OPT_IN / 4 + 1) + 5, WITHOUT_OPT_IN / 4 + 1},
                               {2 * TURING_TILE + 100, TURING_TILE},
                               {TWICE_MAX, TILE_MAX},
                               {100003, TILE_PAST},
                               {1000003, TILE_WITHIN},
                               {(1 << 24) + 3, TILE_MAX}};

/* ==== The reference and the hints ==== */

/* Where data[i] comes from after the call: its tile's element shift places on, around the tile. */
static int source_of(int i, int n, int tile, int shift)
{
    int first = i / tile * tile;
    int length = n - first < tile ? n - first : tile;
    int j = i - first + shift % length;
    return first + (j < length ? j : j - length);
}

/* Where it would come from, rotated the other way. */
static int rotated_right(int i, int n, int tile, int shift)
{
    int first = i / tile * tile;
    int length = n - first < tile ? n - first : tile;
    int j = i - first - shift % length;
    return first + (j >= 0 ? j : j + length);
}

/* What the first wrong element says: the tile left as it was, rotated the other way, or the short last
 * tile alone wrong. */
static void hint_for(struct lab *lab, const float *got, const float *in, const float *want, int n, int tile,
                     int shift)
{
    int i = 0;
    while (i < n && got[i] == want[i])
        i++;
    if (i == n)
        return;
    int last_first = (n - 1) / tile * tile;
    if (got[i] == in[i])
        lab_hint(lab, "element %d holds what it held before the call: its tile was not rotated (did a kernel run, "
                      "and write the tile back?)", i);
    else if (got[i] == in[rotated_right(i, n, tile, shift)])
        lab_hint(lab, "element %d holds the element shift places before it: rotated right; left is the element at "
                      "first + (i + shift) %% length", i);
    else if (i >= last_first && n % tile)
        lab_hint(lab, "the first wrong element is in the last tile, which holds only n - first = %d elements: it is "
                      "rotated within them, by shift %% length", n - last_first);
}

/* After a CUDA error: what a refused launch, or a kernel's fault, most often means here. */
static void hint_stopped(struct lab *lab, int tile)
{
    long long bytes = (long long)tile * (long long)sizeof(float);
    if (!strstr(lab->cuda_error, "cudaErrorInvalidValue"))
        lab_hint(lab, "a kernel's fault: an access past the shared memory its launch gave? The launch's third "
                      "parameter counts bytes, tile * sizeof(float), not floats, and a static __shared__ array "
                      "holds 48 KiB at most. Step 2's memcheck names the line");
    else if (bytes > WITHOUT_OPT_IN)
        lab_hint(lab, "the launch was refused: a tile of %d floats is %lld bytes, past the %d bytes (48 KiB) a "
                      "launch takes as it is. cudaFuncSetAttribute(kernel, "
                      "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), before the launch, allows the kernel "
                      "that much", tile, bytes, (int)WITHOUT_OPT_IN);
    else
        lab_hint(lab, "the launch was refused at a tile of %lld bytes, within 48 KiB: more bytes asked for than the "
                      "tile's, or a static __shared__ array beside the dynamic one (the two count together)", bytes);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch2_dynamic_shared: tiles rotated in place through dynamic shared memory",
              &reps);
    if (lab.time) {
        lab_untimed(&lab, "the lab is judged on its results alone, checked in step 1");
        return lab_end(&lab);
    }
    int optin = 0;  /* the most shared memory a block may have, opted in: the device's, in bytes */
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, lab.dev.id));
    if (optin < TURING_TILE * (int)sizeof(float))  /* (every GPU the course builds for has 64 KiB) */
        lab_cannot_run(&lab, "a block may have less than 64 KiB of shared memory here; the lab's tiles reach 64 KiB");
    const int max_tile = optin / (int)sizeof(float);
    printf("  this GPU lets a block have %d bytes of shared memory (sharedMemPerBlockOptin): tiles of up to %d "
           "floats\n", optin, max_tile);
    int sizes[COUNT_OF(calls)], n_max = 0, big = 0;
    for (int k = 0; k < COUNT_OF(calls); k++) {
        sizes[k] = calls[k][0] == TWICE_MAX ? 2 * max_tile + 7 : calls[k][0];
        n_max = sizes[k] > n_max ? sizes[k] : n_max;
        big += sizes[k] > LAB_SMALL_ELEMENTS;
    }
    size_t bytes = (size_t)n_max * sizeof(float);
    float *in = (float *)host_alloc(bytes), *want = (float *)host_alloc(bytes), *got = (float *)host_alloc(bytes);
    lab_big_sizes(&lab, big);  /* --small: the small sizes, and one of the larger drawn for this grade */
    for (int k = 0; k < COUNT_OF(calls); k++) {
        int n = sizes[k];
        if (lab_skip(&lab, n))
            continue;
        unsigned long long s = lab_fresh(&lab);
        int tile = calls[k][1];
        if (tile == TILE_MAX)
            tile = max_tile;
        else if (tile == TILE_PAST)
            tile = WITHOUT_OPT_IN / 4 + 1 + (int)lab_below(s, TILE_STREAM, 0,
                                                           (unsigned)(max_tile - WITHOUT_OPT_IN / 4));
        else if (tile == TILE_WITHIN)
            tile = 2 + (int)lab_below(s, TILE_STREAM, 0, WITHOUT_OPT_IN / 4 - 1);
        int shift = tile > 1 ? 1 + (int)lab_below(s, SHIFT_STREAM, 0, (unsigned)(tile - 1)) : 0;
        for (int i = 0; i < n; i++)
            in[i] = lab_any_float(s, DATA_STREAM, (unsigned long long)i);
        for (int i = 0; i < n; i++)
            want[i] = in[source_of(i, n, tile, shift)];
        struct lab_call c;
        lab_call_start(&c);
        lab_out(&c, in, got, (size_t)n * sizeof(float));
        lab_int(&c, n);
        lab_int(&c, tile);
        lab_int(&c, shift);
        char what[128];
        snprintf(what, sizeof what, "n = %d, tile = %d (%lld bytes), shift = %d", n, tile,
                 (long long)tile * (long long)sizeof(float), shift);
        if (lab_run(&lab, &c)) {
            if (lab.cuda_error[0]) {
                printf("  %s: the call that was running when the error came\n", what);
                hint_stopped(&lab, tile);
            }
            break;
        }
        if (lab_check_floats(&lab, what, got, want, n, 0, 0, "a rotation moves every bit: exact"))
            hint_for(&lab, got, in, want, n, tile, shift);
    }
    free(in), free(want), free(got);
    return lab_end(&lab);
}
