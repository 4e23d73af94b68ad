/* ch2_warp_sum's judge: ch2_block_sum's checks and timing (reduction.h) for a block sum built from warp
 * shuffles. */
#include "lab.h"

#define THREADS 256  /* the statement's block size (labs/ch2_warp_sum.cu) */

#include "reduction.h"

int main(int argc, char **argv)
{
    /* Five shuffle additions in the warp, five more among the warps' sums. */
    return reduction_lab(argc, argv, "Lab ch2_warp_sum: a sum with warp shuffles", 10);
}
