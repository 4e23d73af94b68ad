/* ch5_tiled's harness: the matrix-product checks and timing of matmul.h, for the tiled kernel. */
#include "lab.h"
#include LAB_FILE
#define LAB_TARGET_OF_CUBLAS 10  /* a hand-out's target: a tiled kernel without register tiles is far below */
#include "matmul.h"

int main(int argc, char **argv)
{
    return matmul_lab(argc, argv, "Lab ch5_tiled: C = A B in shared-memory tiles");
}
