/* ch3_halo's runner stub: the student's exchange in every rank of mpirun. Rank 0 talks to the judge; for
 * each call it tells the other ranks the plate's shape (MPI_Bcast), deals out the plate's inside rows
 * (MPI_Scatterv, heat_mpi.cu's split), and every rank builds its band on its GPU, calls the student's
 * function and sends the band back whole, halos included (MPI_Gatherv), for the judge to check. A halo
 * row starts as the plate's edge where the band meets it (MPI_PROC_NULL) and as poison where a
 * neighbour's row must come. The stub's own messages go through a copy of MPI_COMM_WORLD, so that they
 * never meet the student's. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "runner.h"

void lab_halo(float *band, int rows, int cols, int up, int down, float *send_host, float *recv_host);

static MPI_Comm own;  /* the stub's messages */
static int rank, ranks;

/* What rank 0 tells the others before each call, or that the run is over. */
struct order {
    long long call, height, cols, rolled;  /* call 0: the end */
};

/* The stub's own trouble: not the student's fault. Every rank stops with it. */
static void cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "runner: rank %d: %s: %s\n", rank, what, cudaGetErrorString(err));
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* heat_mpi.cu's split: the plate's height - 2 inside rows dealt as evenly as they go. */
static void band_rows(int height, int r, int count, int *first, int *rows)
{
    int share = (height - 2) / count, extra = (height - 2) % count;
    *rows = share + (r < extra);
    *first = 1 + r * share + (r < extra ? r : extra);
}

/* One call, in every rank: plate and bands are rank 0's (the judge's buffers), NULL elsewhere. */
static void take_part(const struct order *o, const float *plate, float *bands)
{
    int height = (int)o->height, cols = (int)o->cols, first, rows;
    band_rows(height, rank, ranks, &first, &rows);
    int up = o->rolled ? (rank + ranks - 1) % ranks : rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = o->rolled ? (rank + 1) % ranks : rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
    size_t row = (size_t)cols, band_bytes = (rows + 2) * row * sizeof(float);

    /* Rank 0's counts and offsets, in floats: the own rows dealt, then the bands (with halos) gathered
     * one after another. */
    int *deal = NULL, *deal_at = NULL, *back = NULL, *back_at = NULL, *status = NULL;
    if (rank == 0) {
        deal = (int *)malloc(4 * ranks * sizeof(int)), deal_at = deal + ranks, back = deal + 2 * ranks;
        back_at = deal + 3 * ranks;
        status = (int *)malloc(ranks * sizeof(int));
        for (int r = 0, at = 0; r < ranks; r++) {
            int f, n;
            band_rows(height, r, ranks, &f, &n);
            deal[r] = n * cols, deal_at[r] = f * cols;
            back[r] = (n + 2) * cols, back_at[r] = at;
            at += back[r];
        }
    }
    float *host = NULL, *edges = NULL, *send_host = NULL, *recv_host = NULL, *band = NULL;
    cuda_ok(cudaMallocHost(&host, band_bytes), "host memory for the band");
    cuda_ok(cudaMallocHost(&edges, 2 * row * sizeof(float)), "host memory for the edges");
    MPI_Scatterv(plate, deal, deal_at, MPI_FLOAT, host + row, rows * cols, MPI_FLOAT, 0, own);
    if (rank == 0) {
        memcpy(edges, plate, row * sizeof(float));
        memcpy(edges + row, plate + (size_t)(height - 1) * row, row * sizeof(float));
    }
    MPI_Bcast(edges, 2 * cols, MPI_FLOAT, 0, own);
    if (up == MPI_PROC_NULL)
        memcpy(host, edges, row * sizeof(float));
    else
        memset(host, 0xff, row * sizeof(float));
    if (down == MPI_PROC_NULL)
        memcpy(host + (rows + 1) * row, edges + row, row * sizeof(float));
    else
        memset(host + (rows + 1) * row, 0xff, row * sizeof(float));
    cuda_ok(cudaMalloc(&band, band_bytes), "the band");
    cuda_ok(cudaMemcpy(band, host, band_bytes, cudaMemcpyHostToDevice), "filling the band");
    cuda_ok(cudaMallocHost(&send_host, 2 * row * sizeof(float)), "send_host");
    cuda_ok(cudaMallocHost(&recv_host, 2 * row * sizeof(float)), "recv_host");
    memset(send_host, 0xff, 2 * row * sizeof(float));
    memset(recv_host, 0xff, 2 * row * sizeof(float));
    cuda_ok(cudaDeviceSynchronize(), "filling the band");

    lab_halo(band, rows, cols, up, down, send_host, recv_host);

    /* A CUDA error is left for the runner's own check on rank 0 (peek, not get); another rank's is
     * said by rank 0, which then stops every rank. */
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        err = cudaPeekAtLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(host, band, band_bytes, cudaMemcpyDeviceToHost);
    int mine = (int)err;
    MPI_Gather(&mine, 1, MPI_INT, status, 1, MPI_INT, 0, own);
    MPI_Gatherv(host, (rows + 2) * cols, MPI_FLOAT, bands, back, back_at, MPI_FLOAT, 0, own);
    if (rank == 0)
        for (int r = 1; r < ranks; r++)
            if (status[r] != cudaSuccess) {
                fprintf(stderr, "runner: rank %d: a CUDA error after your code ran: %s (%s)\n", r,
                        cudaGetErrorName((cudaError_t)status[r]), cudaGetErrorString((cudaError_t)status[r]));
                fflush(stderr);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    cudaFree(band);
    cudaFreeHost(host), cudaFreeHost(edges), cudaFreeHost(send_host), cudaFreeHost(recv_host);
    free(deal), free(status);
}

/* Before main's first CUDA call: MPI, and this rank's GPU (its rank on this machine; ranks share GPUs
 * only where there are more ranks than GPUs, which labs/grade never asks for). When mpirun goes, so
 * does the rank: the judge stops a run that is over its time by killing mpirun's process group, and
 * mpirun puts each rank in a group of its own. */
int lab_ranks_start(int *argc, char ***argv)
{
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)  /* mpirun went before the line above */
        _exit(1);
    MPI_Init(argc, argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &own);
    MPI_Comm_rank(own, &rank);
    MPI_Comm_size(own, &ranks);
    MPI_Comm node;
    int local = 0, gpus = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    if (cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0)
        cudaSetDevice(local % gpus);
    return rank;
}

void lab_ranks_serve(void)
{
    for (;;) {
        struct order o;
        MPI_Bcast(&o, sizeof o, MPI_BYTE, 0, own);
        if (!o.call)
            break;
        take_part(&o, NULL, NULL);
    }
    MPI_Finalize();
}

void lab_ranks_end(void)
{
    struct order o = {0, 0, 0, 0};
    MPI_Bcast(&o, sizeof o, MPI_BYTE, 0, own);
    MPI_Finalize();
}

/* The judge's arguments: the plate (height x cols floats), the bands with their halos one after another
 * (rank 0's first), height, cols, whether the plate is rolled into a cylinder, and the ranks it expects. */
void lab_call(const struct lab_values *v)
{
    struct order o = {1, lab_i(v, 2), lab_i(v, 3), lab_i(v, 4)};
    if (lab_i(v, 5) != ranks || o.height - 2 < ranks) {
        fprintf(stderr, "runner: the judge expects %lld ranks and a plate of %lld rows; mpirun started %d ranks\n",
                lab_i(v, 5), o.height, ranks);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Bcast(&o, sizeof o, MPI_BYTE, 0, own);
    take_part(&o, (const float *)lab_p(v, 0), (float *)lab_p(v, 1));
}
