/* ch2_block_sum's judge: the student's two-pass sum checked against the CPU's (in double) at sizes around
 * a warp and a block, a prime and 2^26 + 1, run twice to catch a race, then timed against CUB
 * (reduction.h, shared with ch2_warp_sum). */
#include "lab.h"

#define THREADS 256  /* the statement's block size (labs/ch2_block_sum.cu) */

#include "reduction.h"

int main(int argc, char **argv)
{
    /* The tree of THREADS values: log2(THREADS) additions for each element. */
    int tree = 0;
    for (int t = THREADS; t > 1; t /= 2)
        tree++;
    return reduction_lab(argc, argv, "Lab ch2_block_sum: a sum as a tree in shared memory", tree);
}
