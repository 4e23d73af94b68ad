/* ch3_halo's judge: the student's halo exchange in every rank of mpirun -np R (--ranks R, which labs/grade
 * gives with the runner's mpirun). Each call's plate comes from a seed of its own (lab_fresh), in [0, 1);
 * the runner's stub deals its inside rows into bands (heat_mpi.cu's split), the student's function runs in
 * every rank, and the bands come back whole. Every band must then be the plate's rows from the one above
 * its first to the one below its last: the halos hold the neighbours' rows, or the plate's edge where
 * there is none, and the own rows are unchanged. Rows are copied, never computed: exact. Each shape twice:
 * with the top and bottom edges fixed, and rolled into a cylinder, where even one rank exchanges (with
 * itself). Judged on the results alone: the exchange's time is MPI's and the host link's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* The plate's values, [0, 1) (rows are copied: any value would do), and the stream of a call's seed. */
#define PLATE_LOW 0.0f
#define PLATE_HIGH 1.0f
enum { STREAM_PLATE = 1 };

/* heat_mpi.cu's split, as the runner's stub makes it: the height - 2 inside rows dealt evenly. */
static void band_rows(int height, int r, int count, int *first, int *rows)
{
    int share = (height - 2) / count, extra = (height - 2) % count;
    *rows = share + (r < extra);
    *first = 1 + r * share + (r < extra ? r : extra);
}

static int same_rows(const float *a, const float *b, int cols)
{
    return memcmp(a, b, cols * sizeof(float)) == 0;
}

static int poisoned_row(const float *a, int cols)
{
    for (int c = 0; c < cols; c++)
        if (!isnan(a[c]))
            return 0;
    return 1;
}

/* After a wrong band: which part is wrong, and the signature of the usual mistakes. `want` is the band
 * as it should be; up_edge and down_edge: whether that halo is the plate's edge (no neighbour there). */
static void hint_halo(struct lab *lab, const float *got, const float *want, int rows, int cols, int up_edge,
                      int down_edge)
{
    const float *above = got, *below = got + (size_t)(rows + 1) * cols;
    const float *want_above = want, *want_below = want + (size_t)(rows + 1) * cols;
    if (memcmp(got + cols, want + cols, (size_t)rows * cols * sizeof(float)) != 0)
        lab_hint(lab, "an own row changed (rows 1 .. rows of the band): the exchange only reads them, and writes "
                      "rows 0 and rows + 1. cudaMemcpy's first argument is where it writes");
    if ((up_edge && !same_rows(above, want_above, cols)) || (down_edge && !same_rows(below, want_below, cols)))
        lab_hint(lab, "a halo row at the plate's edge changed, where the neighbour is MPI_PROC_NULL: a receive from "
                      "MPI_PROC_NULL brings nothing, so copy into a halo only the rows that came");
    if ((!up_edge && poisoned_row(above, cols)) || (!down_edge && poisoned_row(below, cols)))
        lab_hint(lab, "a halo row still holds the poison it started with, where a neighbour's row should have come: "
                      "nothing was copied into it, or the row sent was itself a halo (send rows 1 and rows, "
                      "the band's own)");
    if (!up_edge && !down_edge && rows > 1 && same_rows(above, want_below, cols) && same_rows(below, want_above, cols))
        lab_hint(lab, "the two halos are swapped: the row that comes from up (its last row) goes into row 0, the "
                      "one from down (its first row) into row rows + 1");
}

/* One call of the student's exchange on a height x cols plate, its edges fixed or rolled into a
 * cylinder, and the check of every band that comes back. 1: the runner is gone (it said why). */
static int one_call(struct lab *lab, int height, int cols, int rolled)
{
    const int ranks = lab->ranks;
    size_t row = (size_t)cols, all_rows = (size_t)(height - 2 + 2 * ranks);
    float *plate = (float *)host_alloc(height * row * sizeof(float));
    float *got = (float *)host_alloc(all_rows * row * sizeof(float));
    float *want = (float *)host_alloc(all_rows * row * sizeof(float));
    unsigned long long seed = lab_fresh(lab);  /* this call's plate */
    for (size_t i = 0; i < height * row; i++)
        plate[i] = lab_value(seed, STREAM_PLATE, i, PLATE_LOW, PLATE_HIGH);
    /* Each band: the plate's rows first - 1 .. first + rows; on a cylinder the halos wrap round, to the
     * last own row above rank 0 and the first below the last rank. */
    for (int r = 0, at = 0; r < ranks; r++) {
        int first, rows;
        band_rows(height, r, ranks, &first, &rows);
        for (int b = 0; b < rows + 2; b++) {
            int from = first - 1 + b;
            if (rolled && from == 0)
                from = height - 2;
            else if (rolled && from == height - 1)
                from = 1;
            memcpy(want + (at + b) * row, plate + from * row, row * sizeof(float));
        }
        at += rows + 2;
    }
    struct lab_call c;
    lab_call_start(&c);
    lab_host_in(&c, plate, height * row * sizeof(float));
    lab_host_out(&c, got, all_rows * row * sizeof(float));
    lab_int(&c, height);
    lab_int(&c, cols);
    lab_int(&c, rolled);
    lab_int(&c, ranks);
    char what[160];
    snprintf(what, sizeof what, "%d x %d plate, %s, %d rank%s", height, cols,
             rolled ? "rolled into a cylinder" : "top and bottom edges fixed", ranks, ranks > 1 ? "s" : "");
    int gone = lab_run(lab, &c);
    if (gone && wall_seconds() >= lab->deadline) {
        /* The file is host code around MPI's calls: a call that never ends is a deadlock, and the verdict
         * says so (labs/steps/correctness.sh reads judge-timeout-why). */
        printf("judge-timeout-why an MPI deadlock? a rank waits for a message that never comes\n");
        lab_hint(lab, "the time ran out at the %s: a rank waits for a message that never comes. Two blocking "
                      "sends facing each other (MPI_Send before MPI_Recv on both sides, or to oneself) wait "
                      "forever once a row is too large for MPI to keep aside: MPI_Sendrecv pairs each send with a "
                      "receive", what);
    }
    /* One line for the call when every band is right. The framework's own hints speak of threads and
     * tiles: this lab's are in hint_halo. */
    int failures = lab->failures;
    lab->quiet = 1;
    for (int r = 0, at = 0; r < ranks && !gone; r++) {
        int first, rows;
        band_rows(height, r, ranks, &first, &rows);
        char band[256];
        snprintf(band, sizeof band, "%s: rank %d's band (row 0 and row %d are its halos)", what, r, rows + 1);
        int hinted = lab->hinted;
        lab->hinted = 2;
        int wrong = lab_check_floats(lab, band, got + at * row, want + at * row, (rows + 2) * row, cols, 0.0,
                                     "rows are copied, never computed: exact");
        lab->hinted = hinted;
        if (wrong)
            hint_halo(lab, got + at * row, want + at * row, rows, cols, !rolled && r == 0, !rolled && r == ranks - 1);
        at += rows + 2;
    }
    lab->quiet = 0;
    if (!gone && lab->failures == failures)
        printf("  %s: PASS (every halo row right, every own row unchanged)\n", what);
    free(plate), free(got), free(want);
    return gone;
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_halo: the halo exchange of a heat band between MPI ranks", &reps);
    if (lab.time) {
        lab_untimed(&lab, "the exchange moves two rows: its time is MPI's and the host link's, not your code's");
        return lab_end(&lab);
    }
    const int ranks = lab.ranks;
    /* Heights: one own row a rank (its first row is its last), then uneven bands; widths from one column
     * to rows of 4 MB, which no MPI keeps aside for a send that has no receive yet. */
    const int shapes[][2] = {{ranks + 2, 1}, {ranks + 2, 33}, {2 * ranks + 3, 100}, {3 * ranks + 7, 1000},
                             {3 * ranks + 3, (1 << 20) + 3}};
    printf("  %d rank%s (mpirun -np %d)\n", ranks, ranks > 1 ? "s" : "", ranks);
    int big = 0;  /* the calls past --small's sizes: each shape fixed and rolled */
    for (int k = 0; k < COUNT_OF(shapes); k++)
        big += 2 * ((long long)shapes[k][0] * shapes[k][1] > LAB_SMALL_ELEMENTS);
    lab_big_sizes(&lab, big);
    int gone = 0;
    for (int k = 0; k < COUNT_OF(shapes) && !gone && lab.failures < 3; k++)
        for (int rolled = 0; rolled < 2 && !gone && lab.failures < 3; rolled++)
            if (!lab_skip(&lab, (long long)shapes[k][0] * shapes[k][1]))
                gone = one_call(&lab, shapes[k][0], shapes[k][1], rolled);
    return lab_end(&lab);
}
