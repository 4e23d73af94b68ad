/* Lab ch3_halo: the halo exchange of a heat band between MPI ranks (chapter 3, going further: heat_mpi.cu).
 *
 * heat_mpi splits the plate's rows over its ranks, one rank per GPU. Each rank owns a band of rows and
 * keeps, just above and just below it, a copy of the row its neighbour owns there: the halo, which the
 * stencil's next step reads. After every step the ranks exchange those rows. Write the exchange for one
 * rank, lab_halo (heat_mpi's exchange, its MPI way):
 *   band       on this rank's GPU, (rows + 2) x cols floats, row after row: row 0 is the halo above,
 *              rows 1 .. rows are this rank's own, row rows + 1 is the halo below;
 *   up, down   the neighbours' ranks in MPI_COMM_WORLD, or MPI_PROC_NULL where the band meets the
 *              plate's edge: there the halo row is the plate's edge, and it must stay as it is;
 *   send_host, recv_host   pinned host memory of 2 x cols floats each, yours to use.
 * Send your first own row (row 1) to up and your last own row (row rows) to down; put the last row of
 * up into row 0 and the first row of down into row rows + 1. Your own rows stay as they are.
 *
 * The course does not assume an MPI that reads GPU memory (a CUDA-aware one), so the rows go through the
 * host: copy your two rows into send_host (cudaMemcpy), exchange with MPI_Sendrecv, copy what came into
 * the halo rows. MPI_Sendrecv sends and receives at once; a blocking MPI_Send on every rank before any
 * receive waits forever once a row is too large for MPI to keep aside. A send to MPI_PROC_NULL, or a
 * receive from it, does nothing; so copy into a halo row only the rows that really came. Tag the two
 * exchanges differently (heat_mpi uses 0 and 1): on a cylinder of two ranks, up and down are the same
 * rank, and the tags keep its two rows apart.
 *
 * The runner calls your function in every rank of mpirun -np 1, and of mpirun -np 2 where the machine has
 * two GPUs; on plates with a top and a bottom edge, and on plates rolled into a cylinder (the last
 * rank's neighbour below is rank 0; with one rank, rank 0 is its own neighbour above and below).
 *
 * Contract:
 *   sizes: checked plates of height x cols = (R + 2) x 1, (R + 2) x 33, (2R + 3) x 100, (3R + 7) x 1000,
 *     (3R + 3) x (2^20 + 3) over R = 1 rank (and R = 2 on two GPUs), each with a top and a bottom edge
 *     and rolled; not timed.
 *   pointers: band, its own cudaMalloc of exactly (rows + 2) x cols floats, 256-byte aligned, a row every
 *     cols floats; send_host and recv_host, pinned host memory (cudaMallocHost's) of 2 x cols floats each;
 *     none offset.
 *   zero: rows and cols are at least 1.
 *   values: the plate uniform in [0, 1), drawn afresh for every call; a halo row arrives as the plate's
 *     edge where there is no neighbour, else filled with 0xff bytes, as send_host and recv_host are.
 *   index: 32-bit: a band is at most 6 x (2^20 + 3) floats here.
 *   binding: the Rules line and the bands on return (halos from the neighbours, own rows unchanged); the
 *     copies through the host and MPI_Sendrecv are the way.
 *
 * Rules: the band and the host buffers are given (no memory of your own); no kernels (the rows are
 *   contiguous: copies move them).
 * Judged on its results alone, with no speed step: the exchange's time is MPI's and the host link's.
 *   make lab L=ch3_halo
 */
/* MPI's C interface only: nvcc compiles as C++, and mpi.h would otherwise bring its C++ bindings. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

void lab_halo(float *band, int rows, int cols, int up, int down, float *send_host, float *recv_host)
{
    /* your code here */
}
