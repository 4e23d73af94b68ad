/* multi_gpu.cu: going further with chapter 3 (more than one GPU): Part 3's normalise, a <- a / sum(a),
 * on an array split across every visible GPU, with NCCL. Each GPU holds a slice and, on its own stream,
 * reduces it (chapter 2's kernel); ncclAllReduce adds the GPUs' sums so that every GPU holds the total;
 * each divides its slice by it. The data never leaves the GPUs. Beside it: the whole array on one GPU,
 * and the sums combined through the host. Every element is checked against the CPU.
 *   make ch3 && ./ch3_streams_events/multi_gpu         (10 million elements, then about 8 GB per GPU)
 *   ./ch3_streams_events/multi_gpu --gpus 1 -n 1e9     (CUDA_VISIBLE_DEVICES=2,3 picks the GPUs)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/nccl_check.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* 256 threads a block: an element goes through the tree's TREE_ADDITIONS = log2(256) additions. */
enum { THREADS_PER_BLOCK = 256, TREE_ADDITIONS = 8, MAX_GPUS = 16, MAX_REPS = 1000 };

/* Element i holds 1 + i % 7: small whole numbers, so that the float sums stay exact while they stay below
 * 2^24, and a slice put in the wrong place gives wrong elements. */
__host__ __device__ static inline float value_at(long long i)
{
    return (float)(1 + i % 7);
}

/* ==== Kernels ==== */

__global__ void fill_values(float *slice, long long first, long long n)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        slice[i] = value_at(first + i);
}

/* normalize.cu's, copied (tests/copies.t keeps them equal): Chapter 2's better reduction, 256 threads a
 * block, one partial sum per block. */
__global__ void partial_reduce(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = THREADS_PER_BLOCK / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x] = s_block[0];
}

/* One block adds the partial sums in double: whole numbers below 2^53 add exactly in any order, so the
 * total does not depend on how the array was split (3.1's single_thread_sum, one block wide). */
__global__ void sum_partials(const float *partial_sums, int count, double *total)
{
    __shared__ double s_block[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    double s = 0.0;
    for (int i = tid; i < count; i += blockDim.x)
        s += partial_sums[i];
    s_block[tid] = s;
    __syncthreads();
    for (int i = THREADS_PER_BLOCK / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        total[0] = s_block[0];
}

__global__ void divide_by_total(float *array, long long n, const double *total)
{
    float sum = (float)total[0];  /* the article's array is float32: divide in float, as it does */
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        array[i] /= sum;
}

/* ==== One GPU's part ==== */

struct part {
    int gpu, blocks;
    long long first, n;      /* its slice: elements first .. first + n - 1 of the array */
    float *slice, *partial_sums;
    double *total;           /* its slice's sum, then (after the combine) the array's */
    cudaStream_t stream;
    cudaEvent_t done;
    ncclComm_t comm;
};

static void part_start(struct part *p, int gpu, int sms, long long first, long long n, ncclComm_t comm)
{
    p->gpu = gpu;
    p->blocks = BLOCKS_PER_SM * sms;
    p->first = first;
    p->n = n;
    p->comm = comm;
    CUDA_CHECK(cudaSetDevice(gpu));
    CUDA_CHECK(cudaMalloc(&p->slice, (n ? n : 1) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&p->partial_sums, p->blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&p->total, sizeof(double)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&p->done, cudaEventDisableTiming));
}

static void part_end(struct part *p)
{
    CUDA_CHECK(cudaSetDevice(p->gpu));
    CUDA_CHECK(cudaFree(p->slice));
    CUDA_CHECK(cudaFree(p->partial_sums));
    CUDA_CHECK(cudaFree(p->total));
    CUDA_CHECK(cudaStreamDestroy(p->stream));
    CUDA_CHECK(cudaEventDestroy(p->done));
}

/* Refill every slice (the normalisation changed it) and wait, so that no fill runs into a timing; GPU 0,
 * where the timer's events are, is current again. */
static void fill_all(struct part *p, int count)
{
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        fill_values<<<p[k].blocks, THREADS_PER_BLOCK, 0, p[k].stream>>>(p[k].slice, p[k].first, p[k].n);
        CHECK_LAUNCH();
    }
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        CUDA_CHECK(cudaStreamSynchronize(p[k].stream));
    }
    CUDA_CHECK(cudaSetDevice(p[0].gpu));
}

/* Times on several GPUs, on one clock: the timer runs on GPU 0's stream, where `start` was recorded
 * (timed_run records the timer's start there); every other stream waits for that event before its work
 * (a stream may wait for another GPU's event); each records `done` after its work, and GPU 0's stream
 * waits for all of them, so that the timer's stop comes after the work of every GPU. */
static void fork_streams(struct part *p, int count, cudaEvent_t start)
{
    for (int k = 1; k < count; k++)
        CUDA_CHECK(cudaStreamWaitEvent(p[k].stream, start, 0));
}

static void join_streams(struct part *p, int count)
{
    for (int k = 1; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        CUDA_CHECK(cudaEventRecord(p[k].done, p[k].stream));
        CUDA_CHECK(cudaStreamWaitEvent(p[0].stream, p[k].done, 0));
    }
    CUDA_CHECK(cudaSetDevice(p[0].gpu));
}

enum combine { WITH_NCCL, THROUGH_HOST };

/* The whole normalisation, end to end: reduce each slice, combine the sums, divide each slice; from the
 * event `start` on GPU 0's stream to the end of that stream. */
static void normalise(struct part *p, int count, enum combine how, double *host_totals, cudaEvent_t start)
{
    fork_streams(p, count, start);
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        partial_reduce<<<p[k].blocks, THREADS_PER_BLOCK, 0, p[k].stream>>>(p[k].slice, p[k].n, p[k].partial_sums);
        CHECK_LAUNCH();
        sum_partials<<<1, THREADS_PER_BLOCK, 0, p[k].stream>>>(p[k].partial_sums, p[k].blocks, p[k].total);
        CHECK_LAUNCH();
    }
    if (count > 1 && how == WITH_NCCL) {
        /* Every GPU's total becomes the sum of all of them, in place, on the GPUs' own link. One thread
         * drives all the communicators, so the calls go in a group: NCCL launches them together (one
         * call alone would wait for the others, which this thread has not made yet). */
        NCCL_CHECK(ncclGroupStart());
        for (int k = 0; k < count; k++)
            NCCL_CHECK(ncclAllReduce(p[k].total, p[k].total, 1, ncclDouble, ncclSum, p[k].comm, p[k].stream));
        NCCL_CHECK(ncclGroupEnd());
    } else if (count > 1) {
        /* The hand-made way: each total to pinned host memory, the host waits for all and adds them, and
         * sends the sum back to every GPU. The host's wait sits in the middle of the GPUs' work. */
        for (int k = 0; k < count; k++) {
            CUDA_CHECK(cudaSetDevice(p[k].gpu));
            CUDA_CHECK(cudaMemcpyAsync(&host_totals[k], p[k].total, sizeof(double), cudaMemcpyDeviceToHost,
                                       p[k].stream));
        }
        host_totals[count] = 0.0;
        for (int k = 0; k < count; k++) {
            CUDA_CHECK(cudaSetDevice(p[k].gpu));
            CUDA_CHECK(cudaStreamSynchronize(p[k].stream));
            host_totals[count] += host_totals[k];
        }
        for (int k = 0; k < count; k++) {
            CUDA_CHECK(cudaSetDevice(p[k].gpu));
            CUDA_CHECK(cudaMemcpyAsync(p[k].total, &host_totals[count], sizeof(double), cudaMemcpyHostToDevice,
                                       p[k].stream));
        }
    }
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        divide_by_total<<<p[k].blocks, THREADS_PER_BLOCK, 0, p[k].stream>>>(p[k].slice, p[k].n, p[k].total);
        CHECK_LAUNCH();
    }
    join_streams(p, count);
}

/* ==== Checks ==== */

/* Element i now holds value_at(i) / total. While every float partial sum stays below 2^24 the sums are
 * exact and so is the answer, to the bit (tolerance 0); beyond, an element's error is at most (its
 * thread's additions + the tree's + the float conversion of the total + the division) x 2^-24, relative.
 * Every GPU must hold the same total. The slices come back in chunks, so the host needs little memory. */
static int check_parts(struct part *p, int count, long long total, double tolerance, float *chunk,
                       long long chunk_elements, const char *what)
{
    float want[7];
    for (int r = 0; r < 7; r++)
        want[r] = (float)(1 + r) / (float)total;
    long long wrong = 0, totals_unlike = 0;
    double worst = 0.0, gpu_total = 0.0;
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(p[k].gpu));
        double t = 0.0;
        CUDA_CHECK(cudaMemcpy(&t, p[k].total, sizeof t, cudaMemcpyDeviceToHost));
        if (k == 0)
            gpu_total = t;
        totals_unlike += t != gpu_total;
        for (long long offset = 0; offset < p[k].n; offset += chunk_elements) {
            long long size = p[k].n - offset < chunk_elements ? p[k].n - offset : chunk_elements;
            CUDA_CHECK(cudaMemcpy(chunk, p[k].slice + offset, size * sizeof(float), cudaMemcpyDeviceToHost));
            int r = (int)((p[k].first + offset) % 7);
            for (long long j = 0; j < size; j++) {
                double error = relative_error(chunk[j], want[r]);
                wrong += !(error <= tolerance);
                worst = worst_of(worst, error);
                r = r == 6 ? 0 : r + 1;
            }
        }
    }
    return check(wrong == 0 && totals_unlike == 0,
                 "%s: %lld of the elements off by more than %.1e (worst %.1e); "
                 "total %.0f (exact: %lld) on every GPU: %s",
                 what, wrong, tolerance, worst, gpu_total, total, totals_unlike ? "no" : "yes");
}

/* ==== The all-reduce alone ==== */

/* ncclAllReduce of `elements` of `type` in place on every GPU, timed with fork and join. */
static struct stats time_allreduce(struct part *p, int count, void **buffers, size_t elements, ncclDataType_t type,
                                   int reps)
{
    double ms[MAX_REPS];
    CUDA_CHECK(cudaSetDevice(p[0].gpu));
    struct timed_runs runs = timed_runs(ms, reps, p[0].stream);
    while (timed_run(&runs)) {
        fork_streams(p, count, runs.timer.start);
        NCCL_CHECK(ncclGroupStart());
        for (int k = 0; k < count; k++)
            NCCL_CHECK(ncclAllReduce(buffers[k], buffers[k], elements, type, ncclSum, p[k].comm, p[k].stream));
        NCCL_CHECK(ncclGroupEnd());
        join_streams(p, count);
    }
    return stats_of(ms, reps);
}

/* NCCL's tests report an all-reduce of S bytes in time t as the algorithm bandwidth S / t and the bus
 * bandwidth S / t x 2 (K - 1) / K: what each GPU's link carried, comparable with the link's speed whatever K. */
static void print_allreduce(const char *key, const char *what, struct stats s, double bytes, int count)
{
    double algbw = bytes / (s.median * 1e-3) / 1e9, busbw = algbw * 2.0 * (count - 1) / count;
    print_time(key, what, s);
    printf("\n  %28s bus bandwidth %.3g GB/s (algorithm bandwidth %.3g GB/s)\n", "", busbw, algbw);
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 10000000;
    int gpus = 0, reps = 11, sweep = 0;
    const char *csv_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 1e12,
         "elements of the whole array (default: 10000000, the article's, then ~8 GB per GPU)"},
        {"--gpus", CLI_INT, &gpus, 1, MAX_GPUS, "GPUs to split it over (default: every visible one)"},
        {"-r", CLI_INT, &reps, 1, MAX_REPS, "timed runs of each way (default 11)"},
        {"--sweep", CLI_FLAG, &sweep, 0, 0, "sizes 1e5 to 1e9 and ~8 GB per GPU, for the figure"},
        {"--sweep-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0,
         "write the timings to FILE, a row per size, GPU count and way"},
    };
    /* GPUs 0 to K-1 of the visible ones: no --device (CUDA_VISIBLE_DEVICES chooses them). */
    cli_parse_gpus(argc, argv, "Going further: Part 3's normalise split across GPUs, the sums combined with NCCL.",
                   options, COUNT_OF(options), NULL);
    if (sweep && cli_given("-n"))
        cli_usage_error(argv[0], "--sweep chooses the sizes; leave out -n");

    struct device_info dev[MAX_GPUS];
    device_start(0, &dev[0]);  /* no GPU: exit 77 here */
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (gpus > visible) {
        fprintf(stderr, "--gpus %d: this machine shows %d GPU%s\n", gpus, visible, visible > 1 ? "s" : "");
        return 2;
    }
    int count = gpus ? gpus : visible < MAX_GPUS ? visible : MAX_GPUS;
    for (int k = 1; k < count; k++)
        device_start(k, &dev[k]);
    double copy_gbs[MAX_GPUS];  /* each GPU's limit: this work streams through its memory */
    for (int k = 0; k < count; k++) {
        CUDA_CHECK(cudaSetDevice(k));
        copy_gbs[k] = measure_copy_bandwidth(COPY_PROBE_BYTES);
    }

    /* NVLink SHARP (multicast through an NVSwitch) speeds up all-reduces among many GPUs; two do not need
     * it, and a shared machine may not offer it. Off unless the user set NCCL_NVLS_ENABLE. */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    /* One process drives every GPU here, so one call makes the K communicators. With one process per GPU
     * (the usual way with MPI, and the only way across machines), rank 0 calls ncclGetUniqueId and sends
     * the id to the others (MPI_Bcast, a file, a socket); each process calls cudaSetDevice(its GPU) and
     * ncclCommInitRank(&comm, K, id, its rank), then makes the same calls as below, without the group. */
    ncclComm_t comms[MAX_GPUS];
    int devices[MAX_GPUS], version = 0;
    for (int k = 0; k < count; k++)
        devices[k] = k;
    if (count > 1)
        NCCL_CHECK(ncclCommInitAll(comms, count, devices));
    NCCL_CHECK(ncclGetVersion(&version));
    printf("NCCL %d.%d.%d, %d GPU%s\n", version / 10000, version / 100 % 100, version % 100, count,
           count > 1 ? "s" : "");

    /* The sizes: the article's ten million (too little work to split), and about 8 GB per GPU, as much as
     * GPU 0 can hold, since the one-GPU run holds it all. */
    CUDA_CHECK(cudaSetDevice(0));
    long long large = sweep || !cli_given("-n")
                          ? size_to_fit(&dev[0], "-n", 2000000000ll * count, 1, sizeof(float), 0, 0)
                          : 0;
    long long sizes[8] = {n}, sweep_sizes[] = {100000, 1000000, 10000000, 100000000, 1000000000};
    int size_count = 1;
    if (sweep) {
        size_count = 0;
        for (int i = 0; i < COUNT_OF(sweep_sizes); i++)
            if (sweep_sizes[i] < large)
                sizes[size_count++] = sweep_sizes[i];
        sizes[size_count++] = large;
    } else if (!cli_given("-n")) {
        sizes[size_count++] = large;
    }

    const long long chunk_elements = 16 << 20;
    float *chunk = NULL;
    double *host_totals = NULL;
    CUDA_CHECK(cudaMallocHost(&chunk, chunk_elements * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&host_totals, (count + 1) * sizeof(double)));
    FILE *csv = csv_path ? csv_open(csv_path, "n,gpus,way,bytes,median_ms,min_ms,max_ms") : NULL;
    cudaEvent_t checked_start;  /* the checked run's fork, on GPU 0 (the timed runs fork from the timer's start) */
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaEventCreateWithFlags(&checked_start, cudaEventDisableTiming));
    int failures = 0;

    for (int s = 0; s < size_count; s++) {
        n = sizes[s];
        long long total = n + 21 * (n / 7) + (n % 7) * (n % 7 - 1) / 2;  /* the sum of 1 + i % 7 */
        printf("\n== %lld elements (%.2f GB), over %d GPU%s ==\n", n, n * 4e-9, count, count > 1 ? "s" : "");
        struct part one, parts[MAX_GPUS];
        double ms[3][MAX_REPS];
        struct stats end_to_end[3];  /* one GPU, K with NCCL, K through the host */
        const char *names[3] = {"one GPU", "", ""}, *ways[3] = {"one_gpu", "nccl", "through_host"};
        char nccl_name[64], host_name[64];
        snprintf(nccl_name, sizeof nccl_name, "%d GPUs, ncclAllReduce", count);
        snprintf(host_name, sizeof host_name, "%d GPUs, through the host", count);
        names[1] = nccl_name;
        names[2] = host_name;

        for (int way = 0; way < (count > 1 ? 3 : 1); way++) {
            /* The one-GPU run holds the whole array on GPU 0; the others split it, the first n % K GPUs
             * one element more. Either way the allocations are made for this run only. */
            struct part *p = way == 0 ? &one : parts;
            int on = way == 0 ? 1 : count;
            if (way == 0 || way == 1) {
                long long first = 0;
                for (int k = 0; k < on; k++) {
                    long long slice = n / on + (k < n % on);
                    CUDA_CHECK(cudaSetDevice(k));
                    device_need_memory(&dev[k], slice * sizeof(float), "-n");
                    part_start(&p[k], k, dev[k].sms, first, slice, count > 1 ? comms[k] : NULL);
                    first += slice;
                }
            }
            long long per_thread = 0;  /* the most elements a thread adds */
            for (int k = 0; k < on; k++) {
                long long e = ceil_div(p[k].n, (long long)p[k].blocks * THREADS_PER_BLOCK);
                per_thread = e > per_thread ? e : per_thread;
            }
            int exact = 7.0 * per_thread * THREADS_PER_BLOCK < 0x1p24;  /* every float partial sum exact */
            double tolerance = exact ? 0.0 : (per_thread + TREE_ADDITIONS + 2) * FLOAT_ROUNDING;

            enum combine how = way == 2 ? THROUGH_HOST : WITH_NCCL;
            /* The first run is checked, before any timing. */
            fill_all(p, on);
            CUDA_CHECK(cudaEventRecord(checked_start, p[0].stream));
            normalise(p, on, how, host_totals, checked_start);
            CUDA_CHECK(cudaStreamSynchronize(p[0].stream));  /* which waited for every GPU's stream */
            failures += check_parts(p, on, total, tolerance, chunk, chunk_elements, names[way]);
            fill_all(p, on);
            struct timed_runs runs = timed_runs(ms[way], reps, p[0].stream);
            while (timed_run(&runs)) {
                normalise(p, on, how, host_totals, runs.timer.start);
                timed_run_end(&runs);
                fill_all(p, on);
            }
            end_to_end[way] = stats_of(ms[way], reps);
            if (way == 0)
                part_end(&one);
        }

        /* What each took, end to end, against its limit: the reduction reads the array once and the
         * division reads and writes it, 12 bytes an element through memory, at best at each GPU's copy
         * bandwidth; K GPUs share the bytes, so at best K times faster. */
        printf("end to end: reduce, combine, divide (%d runs; 12 bytes an element through memory)\n", reps);
        for (int way = 0; way < (count > 1 ? 3 : 1); way++) {
            int on = way == 0 ? 1 : count;
            double limit = 0.0;
            for (int k = 0; k < on; k++)
                limit += copy_gbs[k];
            double gbs = 12.0 * n / (end_to_end[way].median * 1e-3) / 1e9;
            print_time(ways[way], names[way], end_to_end[way]);
            printf("  %.0f GB/s, %.0f%% of %s copy bandwidth", gbs, 100.0 * gbs / limit,
                   on > 1 ? "the GPUs' summed" : "its");
            if (way > 0)
                printf("; %.2fx one GPU (at best %dx)", end_to_end[0].median / end_to_end[way].median, count);
            printf("\n");
            if (csv)
                csv_row(csv, "%lld,%d,%s,%lld,%.5f,%.5f,%.5f", n, on, ways[way], 12 * n, end_to_end[way].median,
                        end_to_end[way].min, end_to_end[way].max);
        }
        if (count == 1)
            printf("one GPU visible: nothing to split (--gpus and CUDA_VISIBLE_DEVICES choose the GPUs)\n");

        if (count > 1) {
            /* The combine step alone: 8 bytes, where the time is all latency; then a large message (the slices
             * themselves, refilled before any next use), where it is bandwidth. */
            void *totals[MAX_GPUS], *slices[MAX_GPUS];
            long long smallest = n;
            for (int k = 0; k < count; k++) {
                totals[k] = parts[k].total;
                slices[k] = parts[k].slice;
                smallest = parts[k].n < smallest ? parts[k].n : smallest;
            }
            long long floats = smallest < (64 << 20) ? smallest : (64 << 20);
            struct stats alone = time_allreduce(parts, count, totals, 1, ncclDouble, reps);
            print_allreduce("allreduce_double", "ncclAllReduce, one double", alone, sizeof(double), count);
            if (csv)
                csv_row(csv, "%lld,%d,allreduce,%d,%.5f,%.5f,%.5f", n, count, 8, alone.median, alone.min, alone.max);
            if (floats > 0) {
                char label[64];
                snprintf(label, sizeof label, "ncclAllReduce, %.0f MB", floats * 4e-6);
                struct stats big = time_allreduce(parts, count, slices, floats, ncclFloat, reps);
                print_allreduce("allreduce_large", label, big, floats * 4.0, count);
                if (csv)
                    csv_row(csv, "%lld,%d,allreduce,%lld,%.5f,%.5f,%.5f", n, count, floats * 4, big.median, big.min,
                            big.max);
            }
            for (int k = 0; k < count; k++)
                part_end(&parts[k]);
        }
    }
    if (csv)
        csv_close(csv);

    for (int k = 0; k < count && count > 1; k++)
        NCCL_CHECK(ncclCommDestroy(comms[k]));
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaEventDestroy(checked_start));
    CUDA_CHECK(cudaFreeHost(chunk));
    CUDA_CHECK(cudaFreeHost(host_totals));
    return exit_status(failures);
}
