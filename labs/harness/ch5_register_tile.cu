/* ch5_register_tile's harness: the matrix-product checks and timing of matmul.h, for the register tiles. */
#include "lab.h"
#include LAB_FILE
#define LAB_TARGET_OF_CUBLAS 20  /* a hand-out's target: register tiles without vector loads */
#include "matmul.h"

int main(int argc, char **argv)
{
    return matmul_lab(argc, argv, "Lab ch5_register_tile: C = A B, a 4 x 4 tile of C per thread");
}
