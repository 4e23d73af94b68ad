/* ch2_cooperative_groups's judge: ch2_warp_sum's checks and timing (reduction.h), for the same block sum
 * written with cooperative groups, which the judge cannot see: it checks the sum. */
#include "lab.h"

#define THREADS 256  /* the statement's block size (labs/ch2_cooperative_groups.cu) */

#include "reduction.h"

int main(int argc, char **argv)
{
    /* Five shuffle additions in the tile, five more among the tiles' sums (cg::reduce's too: its
     * butterfly over 32 ranks is five steps). */
    return reduction_lab(argc, argv, "Lab ch2_cooperative_groups: a sum with cooperative groups", 10);
}
