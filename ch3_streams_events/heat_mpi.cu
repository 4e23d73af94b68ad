/* heat_mpi.cu: going further, heat.cu's plate split over GPUs the way clusters run: one MPI process
 * (rank) per GPU, each owning a band of rows, exchanging its first and last rows with its neighbours
 * after every step (the halo), three ways side by side: through the host with MPI_Sendrecv (or on device
 * pointers where the MPI is CUDA-aware), with NCCL's send and receive, and with NCCL while the inside
 * rows are computed on a second stream (chapter 3's overlap, between GPUs). Every way gives heat.cu's
 * field to the bit, and the same largest change, checked against one GPU.
 *   make ch3 && mpirun -np 2 ./ch3_streams_events/heat_mpi      (as root: mpirun --allow-run-as-root)
 *   srun --mpi=pmix --ntasks-per-node=4 --gpus-per-task=1 ./ch3_streams_events/heat_mpi -n 32768 --steps 50
 *       (Slurm: each rank sees its one GPU; --mpi= is what the site's Open MPI was built with, srun --mpi=list)
 *   make profile P=ch3_streams_events/heat_mpi NP=2 ARGS="-n 16384 --steps 20 -r 3"   (Nsight Systems, both
 *       ranks: NVTX ranges name the edge strips, the inside rows and the halo exchange, the overlap in view)
 */
#include <math.h>
/* MPI's C interface only: nvcc compiles as C++, and mpi.h would otherwise bring its C++ bindings. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  /* MPIX_Query_cuda_support, where Open MPI was built with it */
#endif
#include <nvtx3/nvToolsExt.h>        /* NVTX: named ranges that Nsight Systems shows on its timeline (header only) */
#include <nvtx3/nvToolsExtCudaRt.h>  /* and names for the streams */

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/nccl_check.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* heat.cu's launch shapes: the step's blocks of STEP_THREADS columns x STEP_ROWS rows, max_change's 2D. */
enum { STEP_THREADS = 128, STEP_ROWS = 16, BLOCK_X = 32, BLOCK_Y = 8, MAX_REPS = 1000 };
enum way { BY_MPI, BY_NCCL, BY_NCCL_OVERLAP, WAYS };
static const char *way_name[WAYS] = {"MPI_Sendrecv", "NCCL send/recv", "NCCL overlapped"};
/* What is timed, in order: a step each way, then a step's two parts alone: the halo's exchange (NCCL) and
 * the band's rows with no halo (weak scaling's one GPU). The labels are printed and are the CSV's `way`
 * (tests/tables/, plots/heat.gp); a step's is its way's name; timed_key gives each row its key (stats.h). */
enum timed { STEP_BY_MPI, STEP_BY_NCCL, STEP_BY_NCCL_OVERLAP, HALO_ALONE, BAND_ALONE, TIMED };
static const char *timed_name[TIMED] = {"MPI_Sendrecv", "NCCL send/recv", "NCCL overlapped",
                                        "halo exchange alone (NCCL)", "one band without halo"};
static const char *timed_key[TIMED] = {"mpi_sendrecv", "nccl", "nccl_overlap", "halo_alone", "band_alone"};

/* ==== Kernels ==== */

/* heat.cu's step, copied. */
__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int n, int first, int last)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = first + blockIdx.y * STEP_ROWS;
    if (col < 1 || col >= n - 1 || row >= last)
        return;
    int end = row + STEP_ROWS < last ? row + STEP_ROWS : last;
    long long i = (long long)row * n + col;
    float up = in[i - n], mid = in[i];
    for (; row < end; row++, i += n) {
        float down = in[i + n];
        out[i] = 0.25f * ((up + down) + (in[i - 1] + in[i + 1]));
        up = mid;
        mid = down;
    }
}

/* heat.cu's largest change, copied. */
__global__ void max_change(const float *a, const float *b, int n, int first, int last, unsigned *result)
{
    __shared__ unsigned block_max;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_max = 0;
    __syncthreads();
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = first + blockIdx.y * blockDim.y + threadIdx.y;
    if (row < last && col < n) {
        long long i = (long long)row * n + col;
        atomicMax(&block_max, __float_as_uint(fabsf(a[i] - b[i])));
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0)
        atomicMax(result, block_max);
}

/* ==== Host helpers ==== */

/* Every MPI call is checked: with MPI_ERRORS_RETURN (set first thing; MPI's own handler exits with the
 * error's class, 2 for MPI_ERR_COUNT, a usage error's) this names the call and the rank, then exit 1. */
static int world_rank = -1;  /* this process's rank, once MPI has started */

static void mpi_check(int error, const char *call, const char *file, int line)
{
    if (error == MPI_SUCCESS)
        return;
    char why[MPI_MAX_ERROR_STRING] = "", who[32] = "heat_mpi";
    int length = 0;
    MPI_Error_string(error, why, &length);
    snprintf(who, sizeof who, world_rank >= 0 ? "rank %d" : "heat_mpi", world_rank);
    /* The call's name, not its arguments: "MPI_Sendrecv(mine_top, ...)" is said "MPI_Sendrecv". */
    fprintf(stderr, "%s: %.*s failed: %s (%s:%d)\n", who, (int)strcspn(call, "("), call, why, file, line);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);  /* not reached: MPI_Abort ends this process too */
}

#define MPI_CHECK(call) mpi_check((call), #call, __FILE__, __LINE__)

/* One rank's band: rows [first, first + rows) of the plate, held with the row above and the row below
 * (the halo, or the plate's edge) as local rows 0 and rows + 1. */
struct band {
    int rank, ranks, n, first, rows, up, down;  /* up, down: the neighbours' ranks, or MPI_PROC_NULL */
    float *a, *b;                               /* the last field and the next, (rows + 2) x n each */
    float *send_host, *recv_host;               /* two rows each, pinned, for MPI through the host */
    unsigned *change;
    cudaStream_t edge, inside;
    cudaEvent_t edge_done, inside_done;
    ncclComm_t comm;
    int cuda_aware;
};

static dim3 step_grid(int n, int rows)
{
    return dim3((unsigned)ceil_div(n, STEP_THREADS), (unsigned)ceil_div(rows, STEP_ROWS));
}

static dim3 grid_for(int n, int rows)
{
    return dim3((unsigned)ceil_div(n, BLOCK_X), (unsigned)ceil_div(rows > 0 ? rows : 1, BLOCK_Y));
}

static void step_rows(struct band *b, int first, int last, cudaStream_t stream)
{
    if (last > first)
        jacobi_step<<<step_grid(b->n, last - first), STEP_THREADS, 0, stream>>>(b->a, b->b, b->n, first, last);
}

/* The rows of rank r: the plate's n - 2 inside rows dealt as evenly as they go. */
static void band_rows(int n, int rank, int ranks, int *first, int *rows)
{
    int share = (n - 2) / ranks, extra = (n - 2) % ranks;
    *rows = share + (rank < extra);
    *first = 1 + rank * share + (rank < extra ? rank : extra);
}

static void band_start(struct band *b, int n, int rank, int ranks, ncclComm_t comm)
{
    memset(b, 0, sizeof *b);
    b->n = n, b->rank = rank, b->ranks = ranks, b->comm = comm;
    band_rows(n, rank, ranks, &b->first, &b->rows);
    b->up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    b->down = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
    size_t bytes = (size_t)(b->rows + 2) * n * sizeof(float);
    float *plate = (float *)host_alloc(bytes);
    memset(plate, 0, bytes);
    if (rank == 0)
        for (int col = 0; col < n; col++)
            plate[col] = 1.0f;  /* heat.cu's plate: the top edge at 1 */
    CUDA_CHECK(cudaMalloc(&b->a, bytes));
    CUDA_CHECK(cudaMalloc(&b->b, bytes));
    CUDA_CHECK(cudaMemcpy(b->a, plate, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b->b, plate, bytes, cudaMemcpyHostToDevice));
    /* From pageable memory cudaMemcpy may return before its copy has reached the GPU; the legacy stream
     * would wait for it, but the steps run on streams that do not (cudaStreamNonBlocking). */
    CUDA_CHECK(cudaDeviceSynchronize());
    free(plate);
    CUDA_CHECK(cudaMallocHost(&b->send_host, 2 * (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&b->recv_host, 2 * (size_t)n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b->change, sizeof(unsigned)));
    /* The edge strips and their exchange on a high-priority stream: when the inside's blocks fill the GPU,
     * the block scheduler gives the next free SM to the edge kernels and to NCCL's first. */
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&b->edge, cudaStreamNonBlocking, highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&b->inside, cudaStreamNonBlocking, lowest));
    nvtxNameCudaStreamA(b->edge, "edge strips and halo");  /* the streams' names on the timeline */
    nvtxNameCudaStreamA(b->inside, "inside rows");
    CUDA_CHECK(cudaEventCreateWithFlags(&b->edge_done, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&b->inside_done, cudaEventDisableTiming));
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    b->cuda_aware = MPIX_Query_cuda_support();
#endif
}

static void band_end(struct band *b)
{
    CUDA_CHECK(cudaFree(b->a));
    CUDA_CHECK(cudaFree(b->b));
    CUDA_CHECK(cudaFreeHost(b->send_host));
    CUDA_CHECK(cudaFreeHost(b->recv_host));
    CUDA_CHECK(cudaFree(b->change));
    CUDA_CHECK(cudaStreamDestroy(b->edge));
    CUDA_CHECK(cudaStreamDestroy(b->inside));
    CUDA_CHECK(cudaEventDestroy(b->edge_done));
    CUDA_CHECK(cudaEventDestroy(b->inside_done));
}

/* The halo of the new field b->b: my first row to the rank above, my last to the rank below, and
 * theirs into my rows 0 and rows + 1. */
static void exchange(struct band *b, enum way way, cudaStream_t stream)
{
    size_t row = (size_t)b->n, bytes = row * sizeof(float);
    float *mine_top = b->b + row, *mine_bottom = b->b + row * b->rows;
    float *halo_top = b->b, *halo_bottom = b->b + row * (b->rows + 1);
    nvtxRangePushA(way == BY_MPI ? "halo exchange (MPI)" : "halo exchange (NCCL)");
    if (way == BY_MPI && b->cuda_aware) {  /* the MPI reads and writes GPU memory itself */
        CUDA_CHECK(cudaStreamSynchronize(stream));
        MPI_CHECK(MPI_Sendrecv(mine_top, b->n, MPI_FLOAT, b->up, 0, halo_bottom, b->n, MPI_FLOAT, b->down, 0,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Sendrecv(mine_bottom, b->n, MPI_FLOAT, b->down, 1, halo_top, b->n, MPI_FLOAT, b->up, 1,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (way == BY_MPI) {  /* through the pinned host buffers */
        CUDA_CHECK(cudaMemcpyAsync(b->send_host, mine_top, bytes, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(b->send_host + row, mine_bottom, bytes, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        MPI_CHECK(MPI_Sendrecv(b->send_host, b->n, MPI_FLOAT, b->up, 0, b->recv_host + row, b->n, MPI_FLOAT,
                               b->down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Sendrecv(b->send_host + row, b->n, MPI_FLOAT, b->down, 1, b->recv_host, b->n, MPI_FLOAT,
                               b->up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (b->up != MPI_PROC_NULL)
            CUDA_CHECK(cudaMemcpyAsync(halo_top, b->recv_host, bytes, cudaMemcpyHostToDevice, stream));
        if (b->down != MPI_PROC_NULL)
            CUDA_CHECK(cudaMemcpyAsync(halo_bottom, b->recv_host + row, bytes, cudaMemcpyHostToDevice, stream));
    } else {  /* NCCL: sends and receives queued on the stream, grouped so that neither waits for the other */
        NCCL_CHECK(ncclGroupStart());
        if (b->up != MPI_PROC_NULL) {
            NCCL_CHECK(ncclSend(mine_top, row, ncclFloat, b->up, b->comm, stream));
            NCCL_CHECK(ncclRecv(halo_top, row, ncclFloat, b->up, b->comm, stream));
        }
        if (b->down != MPI_PROC_NULL) {
            NCCL_CHECK(ncclSend(mine_bottom, row, ncclFloat, b->down, b->comm, stream));
            NCCL_CHECK(ncclRecv(halo_bottom, row, ncclFloat, b->down, b->comm, stream));
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    nvtxRangePop();
}

/* One step, one way: on return the new field is b->a, halo included, once the streams are done. */
static void step(struct band *b, enum way way)
{
    int last = b->rows + 1;  /* local rows 1 .. rows are mine */
    if (way != BY_NCCL_OVERLAP) {
        nvtxRangePushA("band");
        step_rows(b, 1, last, b->edge);
        nvtxRangePop();
        exchange(b, way, b->edge);
    } else {
        /* The edge strips first, on their own stream, then sent while the inside is computed. A strip is
         * one block of rows deep (STEP_ROWS), not one row, so that the inside is the whole band's blocks
         * less the first and the last: where a step's blocks start changes its time a little, and at
         * N = 45000 on an H200 blocks started one row lower made the step 0.4% slower, as long as the
         * halo takes (README). */
        int top = last < 1 + STEP_ROWS ? last : 1 + STEP_ROWS;             /* rows [1, top) */
        int bottom = last - STEP_ROWS > top ? last - STEP_ROWS : top;      /* rows [bottom, last) */
        nvtxRangePushA("edge strips");
        step_rows(b, 1, top, b->edge);
        step_rows(b, bottom, last, b->edge);
        nvtxRangePop();
        exchange(b, way, b->edge);
        nvtxRangePushA("inside rows");
        step_rows(b, top, bottom, b->inside);
        nvtxRangePop();
        /* The next step reads both parts of this field: each stream waits for the other's work. */
        CUDA_CHECK(cudaEventRecord(b->edge_done, b->edge));
        CUDA_CHECK(cudaEventRecord(b->inside_done, b->inside));
        CUDA_CHECK(cudaStreamWaitEvent(b->inside, b->edge_done, 0));
        CUDA_CHECK(cudaStreamWaitEvent(b->edge, b->inside_done, 0));
    }
    CHECK_LAUNCH();
    float *t = b->a;
    b->a = b->b, b->b = t;
}

static void finish(struct band *b)
{
    CUDA_CHECK(cudaStreamSynchronize(b->edge));
    CUDA_CHECK(cudaStreamSynchronize(b->inside));
}

/* The plate's largest change in the last step, the same on every rank (a maximum over the ranks). */
static float largest_change(struct band *b)
{
    finish(b);
    CUDA_CHECK(cudaMemset(b->change, 0, sizeof(unsigned)));
    max_change<<<grid_for(b->n, b->rows), dim3(BLOCK_X, BLOCK_Y)>>>(b->a, b->b, b->n, 1, b->rows + 1, b->change);
    CHECK_LAUNCH();
    unsigned mine, all;
    CUDA_CHECK(cudaMemcpy(&mine, b->change, sizeof mine, cudaMemcpyDeviceToHost));
    MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD));
    float change;
    memcpy(&change, &all, sizeof change);
    return change;
}

/* The whole plate on rank 0 (NULL elsewhere): every rank's rows, gathered. */
static float *gather(struct band *b)
{
    finish(b);
    float *mine = (float *)host_alloc((size_t)b->rows * b->n * sizeof(float)), *plate = NULL;
    CUDA_CHECK(cudaMemcpy(mine, b->a + b->n, (size_t)b->rows * b->n * sizeof(float), cudaMemcpyDeviceToHost));
    int *counts = NULL, *offsets = NULL;
    if (b->rank == 0) {
        plate = (float *)host_alloc((size_t)b->n * b->n * sizeof(float));
        counts = (int *)host_alloc(b->ranks * sizeof(int));
        offsets = (int *)host_alloc(b->ranks * sizeof(int));
        for (int r = 0; r < b->ranks; r++) {
            int first, rows;
            band_rows(b->n, r, b->ranks, &first, &rows);
            counts[r] = rows * b->n;
            offsets[r] = first * b->n;
        }
    }
    MPI_CHECK(MPI_Gatherv(mine, b->rows * b->n, MPI_FLOAT, plate, counts, offsets, MPI_FLOAT, 0, MPI_COMM_WORLD));
    free(mine), free(counts), free(offsets);
    return plate;
}

/* Every rank ends with the same status: the largest of them. */
static void end_all(int status)
{
    int worst;
    MPI_CHECK(MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Finalize());
    exit(worst);
}

/* The GPU of each rank, decided alike on every rank of a machine (`node`). A rank that sees one GPU
 * takes it (Slurm's --gpus-per-task=1); one that sees several takes its rank's on this machine, from
 * --device ID on (mpirun). Two ranks on one GPU (NCCL refuses it; told apart by UUID), or a rank with
 * none left, is a usage error said once. Returns the device id; *status becomes 2 or 77 where not. */
static int choose_gpu(int first_gpu, MPI_Comm node, int local_rank, int local_ranks, int *status)
{
    struct choice {
        int status, has_gpu;
        cudaUUID_t uuid;
    } mine = {*status, 0, {}};
    int gpus = 0, device = 0;
    if (mine.status == 0)
        mine.status = cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0 ? NO_DEVICE_EXIT : 0;
    int n = gpus > 1 && local_ranks <= gpus ? local_ranks : 1;  /* GPUs the ranks here take, from --device on */
    if (mine.status == 0 && first_gpu + n > gpus) {  /* (more ranks than GPUs: said below, --device or not) */
        if (local_rank == 0)
            fprintf(stderr, "--device %d: no such device; this rank sees %d (use 0..%d)\n", first_gpu, gpus, gpus - n);
        mine.status = 2;
    }
    if (mine.status == 0) {
        device = gpus == 1 ? 0 : first_gpu + local_rank;
        cudaDeviceProp prop;
        if (device < gpus && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
            mine.has_gpu = 1;
            mine.uuid = prop.uuid;
        }
    }
    struct choice *all = (struct choice *)host_alloc(local_ranks * sizeof(struct choice));
    MPI_CHECK(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, node));
    int all_ok = 1, all_have_one = 1, distinct = 0;
    for (int r = 0; r < local_ranks; r++) {
        all_ok &= all[r].status == 0;
        all_have_one &= all[r].has_gpu;
        int seen = !all[r].has_gpu;
        for (int q = 0; q < r && !seen; q++)
            seen = all[q].has_gpu && !memcmp(&all[q].uuid, &all[r].uuid, sizeof(cudaUUID_t));
        distinct += !seen;
    }
    free(all);
    if (all_ok && !(all_have_one && distinct == local_ranks)) {
        if (local_rank == 0)
            fprintf(stderr, "heat_mpi: %d ranks on this machine but %d GPU%s: one rank per GPU (mpirun -np %d)\n",
                    local_ranks, distinct, distinct == 1 ? "" : "s", distinct);
        mine.status = 2;
    }
    *status = mine.status;
    return device;
}

/* `steps` steps of one timed case, queued on the band's streams. */
static void run_steps(struct band *b, enum timed what, int steps)
{
    for (int s = 0; s < steps; s++)
        switch (what) {
        case STEP_BY_MPI:
            step(b, BY_MPI);
            break;
        case STEP_BY_NCCL:
            step(b, BY_NCCL);
            break;
        case STEP_BY_NCCL_OVERLAP:
            step(b, BY_NCCL_OVERLAP);
            break;
        case HALO_ALONE:
            exchange(b, BY_NCCL, b->edge);
            break;
        default:  /* BAND_ALONE */
            nvtxRangePushA("band");
            step_rows(b, 1, b->rows + 1, b->edge);
            nvtxRangePop();
        }
}

/* Between two timed runs, outside both (after timed_run_end): rank 0 says how long the timing will take,
 * from the first case's warm-up, and how far it is; then the ranks meet at a barrier, so that every run
 * starts as they leave it (and ends at the barrier after its steps). */
static void between_runs(int rank, enum timed what, const struct timed_runs *runs)
{
    double runs_per_case = runs->reps + 1.0;  /* the warm-up and the timed runs */
    if (rank == 0) {
        if (what == STEP_BY_MPI && runs->run == -1)  /* the first case; the halo alone costs next to nothing */
            say_how_long("the timing", (TIMED - 1) * runs_per_case * runs->warm_up_ms / 1e3,
                         "-r 1, --steps 10 or a smaller -n");
        say_progress((what * runs_per_case + runs->run + 2) / (TIMED * runs_per_case));
    }
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* How much longer a step is than the band alone, never a negative time: the difference of two medians
 * where it is above the larger of their spreads (the +- printed), else that it is within that noise
 * (on one rank NCCL's step, the band's and an empty group, came out below the band's). */
static void say_over(char *text, size_t size, struct stats step, struct stats band)
{
    double over = step.median - band.median, spread = step.std > band.std ? step.std : band.std;
    if (over > spread)
        snprintf(text, size, "%.1f us", 1e3 * over);
    else
        snprintf(text, size, "no more than the runs' spread (+- %.2f us)", 1e3 * spread);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 16384;
    int steps = 100, reps = 11, every = 10;
    const char *csv_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 3, 65536, "side of the timed plate in points (default 16384)"},
        {"--steps", CLI_INT, &steps, 1, 100000, "steps in each timed run (default 100)"},
        {"--every", CLI_INT, &every, 1, 100000, "steps between two largest changes in the check (default 10)"},
        {"-r", CLI_INT, &reps, 1, MAX_REPS, "timed runs (default 11)"},
        {"--ways-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the times per step to FILE (rank 0)"},
    };
    int first_gpu = cli_parse_gpus(argc, argv,  /* on every rank alike: a usage error is exit 2 on all, before MPI */
                                   "Heat diffusion split over GPUs: one MPI rank per GPU, halos by MPI or NCCL.",
                                   options, COUNT_OF(options), "first GPU of a machine's ranks (rank r: N + r)");
    MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));  /* errors to MPI_CHECK */
    int rank, ranks, local_rank, local_ranks;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    world_rank = rank;
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    MPI_Comm node;  /* the ranks of this machine, one GPU each */
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_rank(node, &local_rank));
    MPI_CHECK(MPI_Comm_size(node, &local_ranks));
    int status = 0;
    if (n - 2 < 2LL * ranks) {  /* before the GPUs: a usage error is one everywhere */
        if (rank == 0)
            fprintf(stderr, "heat_mpi: -n %lld is too small for %d ranks: each needs 2 inside rows (-n %d at least)\n",
                    n, ranks, 2 * ranks + 2);
        status = 2;
    }
    int gpu = choose_gpu(first_gpu, node, local_rank, local_ranks, &status);
    int worst;
    MPI_CHECK(MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (worst) {
        if (worst == NO_DEVICE_EXIT && rank == 0)
            fprintf(stderr, "no usable CUDA device on every rank; heat_mpi needs one GPU per rank\n");
        end_all(worst);
    }
    struct device_info dev;
    device_start(gpu, &dev);
    setenv("NCCL_NVLS_ENABLE", "0", 0);  /* no NVLink SHARP unless asked: two GPUs need none (multi_gpu.cu) */
    ncclUniqueId id;  /* rank 0 makes the communicator's name, MPI tells the others */
    if (rank == 0)
        NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    ncclComm_t comm;
    NCCL_CHECK(ncclCommInitRank(&comm, ranks, id, rank));
    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);

    /* Check: each way against one GPU (rank 0's, the whole plate: heat.cu's steps), to the bit, and the
     * largest change every `every` steps equal on every rank and to one GPU's. */
    int failures = 0;
    struct band b, one;
    /* From the smallest plate the ranks allow; 20 rows a rank: edge strips that meet, with no inside. */
    const int check_sides[] = {2 * ranks + 2, 2 * ranks + 3, 20 * ranks + 2, 129, 1000};
    const int check_steps = 3 * every + 1;
    for (int k = 0; k < COUNT_OF(check_sides); k++) {
        int m = check_sides[k];
        float *want = NULL, want_change[64];
        if (rank == 0) {  /* one GPU: a band of the whole plate, with no neighbours */
            band_start(&one, m, 0, 1, comm);
            for (int s = 1; s <= check_steps; s++) {
                step_rows(&one, 1, one.rows + 1, one.edge);
                float *t = one.a;
                one.a = one.b, one.b = t;
                if (s % every == 0) {
                    finish(&one);
                    CUDA_CHECK(cudaMemset(one.change, 0, sizeof(unsigned)));
                    max_change<<<grid_for(m, one.rows), dim3(BLOCK_X, BLOCK_Y)>>>(one.a, one.b, m, 1, one.rows + 1,
                                                                                  one.change);
                    unsigned bits;
                    CUDA_CHECK(cudaMemcpy(&bits, one.change, sizeof bits, cudaMemcpyDeviceToHost));
                    memcpy(&want_change[s / every], &bits, sizeof bits);
                }
            }
            finish(&one);
            want = (float *)host_alloc((size_t)m * m * sizeof(float));
            CUDA_CHECK(cudaMemcpy(want + m, one.a + m, (size_t)one.rows * m * sizeof(float), cudaMemcpyDeviceToHost));
            band_end(&one);
        }
        MPI_CHECK(MPI_Bcast(want_change, 64, MPI_FLOAT, 0, MPI_COMM_WORLD));
        for (int w = 0; w < WAYS; w++) {
            band_start(&b, m, rank, ranks, comm);
            int same_change = 1;
            for (int s = 1; s <= check_steps; s++) {
                step(&b, (enum way)w);
                if (s % every == 0)
                    same_change &= largest_change(&b) == want_change[s / every];
            }
            float *got = gather(&b);
            if (rank == 0)
                failures += check(memcmp(got + m, want + m, (size_t)(m - 2) * m * sizeof(float)) == 0 && same_change,
                                  "%d x %d plate, %d ranks, %s, %d steps: the field equals one GPU's bit for bit, "
                                  "and so does the largest change every %d steps", m, m, ranks, way_name[w],
                                  check_steps, every);
            free(got);
            band_end(&b);
        }
        free(want);
    }
    MPI_CHECK(MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (failures)
        end_all(1);

    /* Time each case: reps runs of `steps` steps after a warm-up, by the wall clock (the ranks are
     * separate processes), each run from the barrier where the ranks meet before it (between_runs) to
     * the one after its steps. Then a step's time. */
    double ms[TIMED][MAX_REPS];
    band_start(&b, (int)n, rank, ranks, comm);
    for (int t = 0; t < TIMED; t++) {
        struct timed_runs runs = timed_runs_wall(ms[t], reps);
        runs.quiet = 1;  /* rank 0 alone says how long the whole timing takes (between_runs) */
        nvtxRangePushA(timed_name[t]);  /* each case's runs as one range on the timeline */
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));  /* the warm-up starts as the ranks leave it */
        while (timed_run(&runs)) {
            run_steps(&b, (enum timed)t, steps);
            finish(&b);
            MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
            timed_run_end(&runs);
            between_runs(rank, (enum timed)t, &runs);
        }
        nvtxRangePop();
        for (int r = 0; r < reps; r++)
            ms[t][r] /= steps;
    }
    if (rank == 0) {
        double bytes = 2.0 * sizeof(float) * (n - 2) * (n - 2), band_bytes = 2.0 * sizeof(float) * b.rows * (n - 2);
        printf("\n%lld x %lld plate (%.2f GB a field, %.2f GB per GPU for both), %d ranks, %d steps a run, %d runs;\n"
               "limit per GPU = its device-to-device copy, %.0f GB/s; MPI %s CUDA-aware\n", n, n, 4.0 * n * n / 1e9,
               8.0 * b.rows * n / 1e9, ranks, steps, reps, copy_gbs, b.cuda_aware ? "is" : "is not");
        FILE *csv = csv_path ? csv_open(csv_path, "way,ranks,n,median_ms,gbs") : NULL;
        struct stats all[TIMED];
        for (int t = 0; t < TIMED; t++) {
            all[t] = stats_of(ms[t], reps);
            struct stats s = all[t];
            double moved = 0.0;  /* the bytes a step reads and writes, for its rate */
            switch ((enum timed)t) {
            case HALO_ALONE:  /* two rows: a time, no rate */
                print_time(timed_key[t], timed_name[t], s);
                printf("\n");
                break;
            case BAND_ALONE:
                moved = band_bytes;
                print_bandwidth(timed_key[t], timed_name[t], s, moved, copy_gbs, "of one GPU's copy");
                break;
            default:  /* a step, each way: the whole plate, on every GPU */
                moved = bytes;
                print_bandwidth(timed_key[t], timed_name[t], s, moved, ranks * copy_gbs, "of the GPUs' copy");
            }
            if (csv)
                csv_row(csv, "%s,%d,%lld,%.6g,%.1f", timed_name[t], ranks, n, s.median,
                        moved > 0.0 ? moved / (s.median * 1e-3) / 1e9 : 0.0);
        }
        if (csv)
            csv_close(csv);
        /* The overlap's limit: the band alone. How far each NCCL way is from it, against the halo. */
        char with_nccl[64], overlapped[64];
        say_over(with_nccl, sizeof with_nccl, all[STEP_BY_NCCL], all[BAND_ALONE]);
        say_over(overlapped, sizeof overlapped, all[STEP_BY_NCCL_OVERLAP], all[BAND_ALONE]);
        printf("\nA step over the band alone: %s with NCCL, %s with NCCL overlapped (the halo alone: %.1f us)\n",
               with_nccl, overlapped, 1e3 * all[HALO_ALONE].median);
        printf("\nWhat it means: each rank computes its band and sends two rows of %lld floats a step. With the\n"
               "overlap, the inside rows are computed while the edge rows travel, so the step costs what the band\n"
               "alone costs as long as the exchange is shorter, plus what splitting the step costs: on one rank,\n"
               "with nothing to send, that alone is left. One band alone is weak scaling's reference.\n", n);
    }
    band_end(&b);
    NCCL_CHECK(ncclCommDestroy(comm));
    end_all(0);
}
