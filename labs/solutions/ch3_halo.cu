/* Lab ch3_halo, a solution: heat_mpi.cu's exchange through the host. The two own rows go to pinned host
 * memory, two MPI_Sendrecv swap them with the neighbours (each sends one way while it receives from the
 * other), and what came goes into the halo rows, where a neighbour exists.
 *   make lab L=ch3_halo FILE=labs/solutions/ch3_halo.cu
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

void lab_halo(float *band, int rows, int cols, int up, int down, float *send_host, float *recv_host)
{
    size_t row = (size_t)cols, bytes = row * sizeof(float);
    float *mine_top = band + row, *mine_bottom = band + row * rows;
    float *halo_top = band, *halo_bottom = band + row * (rows + 1);
    cudaMemcpy(send_host, mine_top, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(send_host + row, mine_bottom, bytes, cudaMemcpyDeviceToHost);
    /* My first row goes up while the row from below comes in; then my last row goes down while the row
     * from above comes in. The tags tell the two apart where up and down are the same rank. */
    MPI_Sendrecv(send_host, cols, MPI_FLOAT, up, 0,
                 recv_host + row, cols, MPI_FLOAT, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(send_host + row, cols, MPI_FLOAT, down, 1,
                 recv_host, cols, MPI_FLOAT, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (up != MPI_PROC_NULL)
        cudaMemcpy(halo_top, recv_host, bytes, cudaMemcpyHostToDevice);
    if (down != MPI_PROC_NULL)
        cudaMemcpy(halo_bottom, recv_host + row, bytes, cudaMemcpyHostToDevice);
}
