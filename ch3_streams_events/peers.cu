/* peers.cu: going further with chapter 3 (more than one GPU): what the GPUs of this machine can do to
 * each other. For every ordered pair: may one GPU read the other's memory (peer access), how does the
 * driver rank the link, and how fast does cudaMemcpyPeerAsync move 256 MiB with peer access enabled
 * (the copy engines talk over NVLink or PCIe directly), without it (the driver stages the copy through
 * host memory), and by hand through pinned host memory (two copies in chunks, pipelined with events:
 * chapter 3's tools). Each is set beside the host link, measured as in chapter 3. On one GPU it says so
 * and shows the host link alone, with the round trip through the host.
 *   make ch3 && ./ch3_streams_events/peers        (--pairs-csv FILE keeps the numbers)
 */
#include <stdio.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

enum { MAX_GPUS = 16 };
static const size_t CHUNK_BYTES = 32 << 20;  /* the pieces of a copy through the host */

/* ==== Kernel ==== */

/* Word i of GPU `from`'s buffer: a pattern that tells words apart, so that a chunk copied to the wrong
 * place (or not at all) is found. */
__host__ __device__ static inline unsigned pattern(long long i, int from)
{
    return (unsigned)(i * 2654435761u) ^ (unsigned)(from + 1) << 24;
}

__global__ void fill_pattern(unsigned *words, long long count, int from)
{
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < count;
         i += (long long)blockDim.x * gridDim.x)
        words[i] = pattern(i, from);
}

/* ==== Three ways to copy, and their check ==== */

/* Every word the copy left in `words` (on the current GPU) is the one GPU `from` filled in: 1 if so. */
static int copied_right(const unsigned *words, long long count, int from, unsigned *host)
{
    CUDA_CHECK(cudaMemcpy(host, words, count * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (long long i = 0; i < count; i++)
        if (host[i] != pattern(i, from))
            return 0;
    return 1;
}

/* The third way, by hand: chunk k goes from GPU src into pinned host buffer k % 2 on src's stream, an
 * event marks it landed, and dst's stream waits for that event before it copies the chunk on. Before
 * src's stream overwrites a buffer, it waits until dst has copied out of it (two chunks ago). So one
 * chunk goes up while the one before goes down: both directions of the host link at once.
 * A stream may wait for an event of another GPU: that is how the two sides stay in step. */
static void copy_through_host(void *dst, int dst_id, cudaStream_t dst_stream, const void *src, int src_id,
                              cudaStream_t src_stream, size_t bytes, char *host[2], cudaEvent_t landed[2],
                              cudaEvent_t drained[2])
{
    for (size_t offset = 0, k = 0; offset < bytes; offset += CHUNK_BYTES, k++) {
        size_t size = bytes - offset < CHUNK_BYTES ? bytes - offset : CHUNK_BYTES;
        int b = k % 2;
        CUDA_CHECK(cudaSetDevice(src_id));
        if (k >= 2)
            CUDA_CHECK(cudaStreamWaitEvent(src_stream, drained[b], 0));
        CUDA_CHECK(cudaMemcpyAsync(host[b], (const char *)src + offset, size, cudaMemcpyDeviceToHost, src_stream));
        CUDA_CHECK(cudaEventRecord(landed[b], src_stream));
        CUDA_CHECK(cudaSetDevice(dst_id));
        CUDA_CHECK(cudaStreamWaitEvent(dst_stream, landed[b], 0));
        CUDA_CHECK(cudaMemcpyAsync((char *)dst + offset, host[b], size, cudaMemcpyHostToDevice, dst_stream));
        CUDA_CHECK(cudaEventRecord(drained[b], dst_stream));
    }
    CUDA_CHECK(cudaSetDevice(src_id));
    CUDA_CHECK(cudaStreamWaitEvent(src_stream, drained[0], 0));  /* the timer's stop waits for both sides */
    CUDA_CHECK(cudaStreamWaitEvent(src_stream, drained[1], 0));
}

enum way { PEER_ENABLED, PEER_DISABLED, THROUGH_HOST, WAYS };
static const char *way_names[WAYS] = {"peer_enabled", "peer_disabled", "through_host"};

struct gpu {
    unsigned *source, *target;  /* what this GPU's copies read, and where copies to it land */
    cudaStream_t stream;
    cudaEvent_t landed[2], drained[2];
};

/* Copy GPU src's buffer into GPU dst's `reps` times one way, on src's clock; check the last copy. */
static struct stats time_copy(struct gpu *g, int src, int dst, enum way way, size_t bytes, int reps,
                              char *host[2], unsigned *check_host, int *failures)
{
    double ms[64];
    CUDA_CHECK(cudaSetDevice(dst));
    CUDA_CHECK(cudaMemset(g[dst].target, 0, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(src));
    struct timed_runs runs = timed_runs(ms, reps, g[src].stream);
    while (timed_run(&runs)) {
        if (way == THROUGH_HOST)
            copy_through_host(g[dst].target, dst, g[dst].stream, g[src].source, src, g[src].stream, bytes, host,
                              g[src].landed, g[dst].drained);
        else
            CUDA_CHECK(cudaMemcpyPeerAsync(g[dst].target, dst, g[src].source, src, bytes, g[src].stream));
    }
    CUDA_CHECK(cudaSetDevice(dst));
    int right = copied_right(g[dst].target, bytes / sizeof(unsigned), src, check_host);
    *failures += check(right, "%d -> %d %s: every word arrived where it belongs", src, dst, way_names[way]);
    return stats_of(ms, reps);
}

/* Peer access is a property of the pair (from the GPU that reads to the GPU it reads): enable or disable
 * it both ways. */
static void set_peer_access(int a, int b, int on)
{
    for (int k = 0; k < 2; k++) {
        int from = k ? b : a, to = k ? a : b;
        CUDA_CHECK(cudaSetDevice(from));
        CUDA_CHECK(on ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to));
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long bytes = 256 << 20;
    int reps = 11;
    const char *csv_path = NULL;
    struct cli_option options[] = {
        {"--bytes", CLI_SIZE, &bytes, 4, 1ll << 34, "bytes a copy moves (default 256M), a multiple of 4"},
        {"-r", CLI_INT, &reps, 1, 64, "timed copies of each kind (default 11)"},
        {"--pairs-csv", CLI_OUTPUT_FILE, &csv_path, 0, 0, "write the bandwidths to FILE"},
    };
    /* Every visible GPU: no --device (CUDA_VISIBLE_DEVICES chooses them). */
    cli_parse_gpus(argc, argv,
                   "Going further: what the GPUs of this machine can do to each other, and how fast they copy.",
                   options, COUNT_OF(options), NULL);
    if (bytes % sizeof(unsigned))
        cli_usage_error(argv[0], "--bytes %lld: must be a multiple of 4", bytes);

    struct device_info dev[MAX_GPUS];
    device_start(0, &dev[0]);  /* no GPU: exit 77 here */
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    if (count > MAX_GPUS) {
        printf("note: %d GPUs visible, the first %d used\n", count, MAX_GPUS);
        count = MAX_GPUS;
    }
    for (int d = 1; d < count; d++)
        device_start(d, &dev[d]);

    /* The host link of each GPU, as chapter 3 measured it: one pinned copy at a time, each direction. */
    double to_gpu[MAX_GPUS], to_host[MAX_GPUS];
    printf("\nhost link, pinned memory, %.0f MiB a copy:\n", bytes / 1048576.0);
    for (int d = 0; d < count; d++) {
        CUDA_CHECK(cudaSetDevice(d));
        to_gpu[d] = measure_transfer_bandwidth(bytes, 1, 1);
        to_host[d] = measure_transfer_bandwidth(bytes, 0, 1);
        printf("  GPU %d: host -> GPU %6.1f GB/s, GPU -> host %6.1f GB/s\n", d, to_gpu[d], to_host[d]);
    }

    /* What the driver says about each pair: may `from` map `to`'s memory, the link's rank among this
     * machine's links (0 is the best), and whether atomics work across it. */
    if (count > 1)
        printf("\npeer access (may the row's GPU read the column's memory), link rank (0 = best), atomics:\n");
    for (int from = 0; from < count && count > 1; from++) {
        printf("  GPU %d:", from);
        for (int to = 0; to < count; to++) {
            int can = 0, rank = 0, atomics = 0;
            if (to == from) {
                printf("  %-16s", "itself");
                continue;
            }
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from, to));
            CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, from, to));
            CUDA_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, from, to));
            char text[32];
            snprintf(text, sizeof text, "%s, rank %d%s", can ? "yes" : "no", rank, atomics ? ", atomics" : "");
            printf("  %-16s", text);
        }
        printf("\n");
    }
    if (count > 1)
        printf("  (CUDA does not report the link's speed: nvidia-smi topo -m names it, nvidia-smi nvlink -s "
               "gives each NVLink's)\n");

    struct gpu g[MAX_GPUS];
    char *host[2];
    for (int b = 0; b < 2; b++)
        CUDA_CHECK(cudaMallocHost((void **)&host[b], CHUNK_BYTES));
    unsigned *check_host = (unsigned *)host_alloc(bytes);
    for (int d = 0; d < count; d++) {
        CUDA_CHECK(cudaSetDevice(d));
        device_need_memory(&dev[d], 2 * bytes, "--bytes");
        CUDA_CHECK(cudaMalloc(&g[d].source, bytes));
        CUDA_CHECK(cudaMalloc(&g[d].target, bytes));
        CUDA_CHECK(cudaStreamCreateWithFlags(&g[d].stream, cudaStreamNonBlocking));
        for (int b = 0; b < 2; b++) {
            CUDA_CHECK(cudaEventCreateWithFlags(&g[d].landed[b], cudaEventDisableTiming));
            CUDA_CHECK(cudaEventCreateWithFlags(&g[d].drained[b], cudaEventDisableTiming));
        }
        fill_pattern<<<BLOCKS_PER_SM * dev[d].sms, 256>>>(g[d].source, bytes / sizeof(unsigned), d);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    }

    FILE *csv = csv_path ? csv_open(csv_path, "from,to,way,gbs,host_to_gpu_gbs,gpu_to_host_gbs") : NULL;
    int failures = 0;
    if (count == 1) {
        /* One GPU: no pair, but the third way still works, from the GPU to itself through the host. */
        printf("\none GPU: no peers. The round trip through pinned host memory, chunks up and down at once:\n");
        struct stats s = time_copy(g, 0, 0, THROUGH_HOST, bytes, reps, host, check_host, &failures);
        double gbs = bytes / (s.median * 1e-3) / 1e9;
        printf("  GPU 0 -> host -> GPU 0: %6.1f GB/s (the slower direction of the host link: %.1f GB/s)\n", gbs,
               to_gpu[0] < to_host[0] ? to_gpu[0] : to_host[0]);
        if (csv)
            csv_row(csv, "0,0,%s,%.2f,%.2f,%.2f", way_names[THROUGH_HOST], gbs, to_gpu[0], to_host[0]);
    } else {
        printf("\ncopy bandwidth, GB/s, median of %d copies of %.0f MiB (bytes moved once: a peer copy reads on "
               "one GPU and writes on the other):\n", reps, bytes / 1048576.0);
        printf("  %-8s  %12s  %14s  %13s  %s\n", "pair", "peer access", "no peer access", "through host",
               "host link (to src's host, to dst)");
        for (int src = 0; src < count; src++) {
            for (int dst = 0; dst < count; dst++) {
                if (src == dst)
                    continue;
                double gbs[WAYS];
                int can = 0;
                CUDA_CHECK(cudaDeviceCanAccessPeer(&can, src, dst));
                for (int way = 0; way < WAYS; way++) {
                    if (way == PEER_ENABLED && !can) {
                        gbs[way] = 0;  /* no peer access between these two: that way does not exist */
                        continue;
                    }
                    if (way == PEER_ENABLED)
                        set_peer_access(src, dst, 1);
                    struct stats s = time_copy(g, src, dst, (enum way)way, bytes, reps, host, check_host, &failures);
                    if (way == PEER_ENABLED)
                        set_peer_access(src, dst, 0);  /* the next two ways go without */
                    gbs[way] = bytes / (s.median * 1e-3) / 1e9;
                    if (csv)
                        csv_row(csv, "%d,%d,%s,%.2f,%.2f,%.2f", src, dst, way_names[way], gbs[way], to_gpu[dst],
                                to_host[src]);
                }
                char pair[32];
                snprintf(pair, sizeof pair, "%d -> %d", src, dst);
                printf("  %-8s  %12.1f  %14.1f  %13.1f  %6.1f, %6.1f\n", pair, gbs[PEER_ENABLED], gbs[PEER_DISABLED],
                       gbs[THROUGH_HOST], to_host[src], to_gpu[dst]);
            }
        }
        printf("Through the host a copy can go no faster than the slower of the two host links it crosses; "
               "with peer access the copy engines use the GPUs' own link.\n");
    }
    if (csv)
        csv_close(csv);

    for (int d = 0; d < count; d++) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaFree(g[d].source));
        CUDA_CHECK(cudaFree(g[d].target));
        CUDA_CHECK(cudaStreamDestroy(g[d].stream));
        for (int b = 0; b < 2; b++) {
            CUDA_CHECK(cudaEventDestroy(g[d].landed[b]));
            CUDA_CHECK(cudaEventDestroy(g[d].drained[b]));
        }
    }
    for (int b = 0; b < 2; b++)
        CUDA_CHECK(cudaFreeHost(host[b]));
    free(check_host);
    return exit_status(failures);
}
