/* ch5_register_tile's judge: the matrix-product checks and timing of matmul.h, for the register tiles. */
#include "lab.h"
#include "matmul.h"

int main(int argc, char **argv)
{
    /* A hand-out's target, in percent of cuBLAS: register tiles without vector loads. */
    return matmul_judge(argc, argv, "Lab ch5_register_tile: C = A B, a 4 x 4 tile of C per thread");
}
