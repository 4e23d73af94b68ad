/* ch5_tiled's judge: the matrix-product checks and timing of matmul.h, for the tiled kernel. */
#include "lab.h"
#include "matmul.h"

int main(int argc, char **argv)
{
    /* A hand-out's target, in percent of cuBLAS: a tiled kernel without register tiles is far below. */
    return matmul_judge(argc, argv, "Lab ch5_tiled: C = A B in shared-memory tiles");
}
