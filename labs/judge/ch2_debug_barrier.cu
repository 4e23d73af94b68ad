/* ch2_debug_barrier's judge: the student's turn_tiles (each 16 x 16 tile of a picture turned half a turn,
 * through shared memory) on pictures of awkward shapes (1 x 1, one row, one column, sides of 31, 33,
 * 1025, so that the tiles at the right and bottom edges are smaller), the largest checked twice, since a
 * race can change the output from run to run; then timed on an 8191 x 4097 picture against the copy
 * bandwidth. Every call's picture, timed runs included, is drawn afresh from lab_fresh: any finite float
 * in each pixel, so that a pixel taken from the wrong place never passes and a copy must keep every bit.
 * Before each timed run the output is poisoned and the picture written whole with a new draw; a sample of
 * the output, drawn afresh each run, is checked after.
 * The file as handed out has no barrier between the tile's write and its read: the output is often wrong,
 * and compute-sanitizer's racecheck (labs/grade's step 2) always names the race. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

#define TILE 16  /* the statement's */
enum { PICTURE_STREAM = 1 };  /* a call's seed's stream for the picture: lab_any_float (random.h) */

static const int shapes[][2] = {{1, 1}, {31, 33}, {33, 31}, {1025, 1}, {1, 1025}, {1025, 7}, {1023, 1025},
                                {8191, 4097}};

/* ==== The reference and the hints ==== */

/* Whether pixel i lies in a tile cut short by the picture's right or bottom edge. */
static int in_edge_tile(int width, int height, long long i)
{
    int x = (int)(i % width), y = (int)(i / width);
    return x / TILE * TILE + TILE > width || y / TILE * TILE + TILE > height;
}

/* Where pixel i of the output comes from: the pixel of its tile turned half a turn, in the tile's own
 * w x h. */
static long long turned(int width, int height, long long i)
{
    int x = (int)(i % width), y = (int)(i / width);
    int x0 = x / TILE * TILE, y0 = y / TILE * TILE;
    int w = width - x0 < TILE ? width - x0 : TILE, h = height - y0 < TILE ? height - y0 : TILE;
    return (long long)(y0 + h - 1 - (y - y0)) * width + x0 + w - 1 - (x - x0);
}

/* After a failed check: wrong pixels only in the edge tiles, or some in whole tiles. */
static void hint_where(struct lab *lab, const float *got, const float *want, int width, int height)
{
    long long wrong = 0, at_edges = 0;
    for (long long i = 0; i < (long long)width * height; i++)
        if (got[i] != want[i]) {  /* NaN, the poison, is never equal */
            wrong++;
            at_edges += in_edge_tile(width, height, i);
        }
    if (wrong > 0 && wrong == at_edges)
        lab_hint(lab, "every wrong pixel lies in a tile at the right or bottom edge, smaller than 16 x 16: is each "
                      "tile turned within its own size, w x h?");
    else if (wrong > 0)
        lab_hint(lab, "wrong pixels inside whole 16 x 16 tiles: a thread read a cell of the tile before the thread "
                      "that owns it wrote it? racecheck (step 2 of make lab) names the two lines");
}

/* ==== Checks and timed runs ==== */

/* One call of lab_turn_tiles(in, out, width, height): out is poisoned, and read back into got. */
static void turn_call(struct lab_call *c, const float *picture, float *got, int width, int height)
{
    long long n = (long long)width * height;
    lab_call_start(c);
    lab_in(c, picture, n * sizeof(float));
    lab_out(c, NULL, got, n * sizeof(float));
    lab_int(c, width);
    lab_int(c, height);
}

/* Every shape, each with a picture of its own; the second largest run twice on the same picture. */
static void check_shapes(struct lab *lab)
{
    const int last = COUNT_OF(shapes) - 1;
    const long long n_max = (long long)shapes[last][0] * shapes[last][1];
    float *picture = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float)), *again = (float *)host_alloc(n_max * sizeof(float));
    int big = 0;
    for (int k = 0; k < COUNT_OF(shapes); k++)
        big += (long long)shapes[k][0] * shapes[k][1] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(lab, big);
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long n = (long long)width * height;
        if (lab_skip(lab, n))
            continue;
        unsigned long long s = lab_fresh(lab);
        for (long long i = 0; i < n; i++)
            picture[i] = lab_any_float(s, PICTURE_STREAM, i);
        struct lab_call c;
        turn_call(&c, picture, got, width, height);
        if (lab_run(lab, &c))
            break;
        for (long long i = 0; i < n; i++)
            want[i] = picture[turned(width, height, i)];
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(lab, what, got, want, n, width, 0, "a copy: exact")) {
            hint_where(lab, got, want, width, height);
        } else if (k == last - 1) {
            /* The same call again: a race can leave a different output each run. */
            turn_call(&c, picture, again, width, height);
            if (lab_run(lab, &c))
                break;
            if (!lab_same_twice(lab, got, again, n * sizeof(float)))
                lab->failures++;
        }
    }
    free(picture), free(got), free(want), free(again);
}

/* The timed runs on the largest picture: before each, the output is poisoned, so that every run must
 * write all of it, and the picture written whole with a fresh draw; after it, a fresh sample of the
 * output (with pixels of the bottom and right edge tiles) is checked against the same draw's pixels,
 * made again here at the turned places. */
static void time_runs(struct lab *lab, int reps)
{
    const int last = COUNT_OF(shapes) - 1;
    const int width = shapes[last][0], height = shapes[last][1];
    const long long n_max = (long long)width * height;
    size_t bytes = n_max * sizeof(float);
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    float *in = (float *)lab_shared(lab, bytes), *out = (float *)lab_shared(lab, bytes);
    struct lab_call c;
    lab_call_start(&c);
    lab_use(&c, in);
    lab_use(&c, out);
    lab_int(&c, width);
    lab_int(&c, height);
    static struct lab_sample sample;
    static float got[LAB_SAMPLES], want[LAB_SAMPLES];
    sample.output = out, sample.size = 4, sample.n = n_max;
    struct lab_clock clock;
    lab_clock_start(lab, &clock, reps);
    lab->quiet = 1;
    while (lab_clock_next(&clock)) {
        unsigned long long s = lab_fresh(lab);
        lab_poison(out, bytes);
        lab_sample_add(&sample, (long long)(height - 1) * width + (clock.run + 1) * 389LL % width);  /* bottom */
        lab_sample_add(&sample, (long long)((clock.run + 1) * 197LL % height) * width + width - 1);  /* right */
        lab_sample_draw(lab, &sample);
        lab_fill_any_floats(in, n_max, s, PICTURE_STREAM);  /* every pixel, just before the call */
        if (lab_timed_call(lab, &clock, &c, &sample, 1))
            break;
        for (int k = 0; k < sample.count; k++) {
            got[k] = lab_sample_float(&sample, k);
            want[k] = lab_any_float(s, PICTURE_STREAM, turned(width, height, sample.index[k]));
        }
        char what[64];
        snprintf(what, sizeof what, "timed run %d, %d sampled pixels", clock.run + 1, sample.count);
        if (lab_check_floats(lab, what, got, want, sample.count, 0, 0, "a copy: exact"))
            break;
    }
    if (!lab->failures) {
        printf("  every timed run's output was right on %d pixels drawn afresh each run\n", sample.count);
        lab_report(lab, lab_clock_stats(lab, &clock), 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth");
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch2_debug_barrier: a race on a shared tile, found with racecheck", &reps);
    if (!lab.time)
        check_shapes(&lab);
    else
        time_runs(&lab, reps);
    return lab_end(&lab);
}
