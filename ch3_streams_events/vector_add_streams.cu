/* vector_add_streams.cu: the multi-stream vector add (the Chinese article on overlapping copies and
 * compute): c = a + b on 20,000,000 doubles, the whole job in one stream (copy in, kernel, copy out)
 * versus K chunks on K streams, so that chunk k's kernel and copies overlap chunk k+1's copy in.
 * Both with pinned and with pageable host memory, each against its transfer bound.
 *   make ch3 && ./ch3_streams_events/vector_add_streams            (K = 5, as in the article)
 *   ./ch3_streams_events/vector_add_streams --streams 16
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvtx3/nvToolsExt.h>  /* NVTX: named ranges that Nsight Systems shows on its timeline (header only) */

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

enum { THREADS_PER_BLOCK = 1024, MAX_STREAMS = 64 };

/* ==== Kernel and host helpers ==== */

__global__ void __launch_bounds__(THREADS_PER_BLOCK) vector_add(const double *a, const double *b, double *c,
                                                                 long long n)
{
    long long i = threadIdx.x + (long long)blockDim.x * blockIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* A fixed pseudo-random number in [0, 1) for element i, from a multiplicative hash of i: the same on every
 * machine, and fast enough for billions of elements (rand() took over a minute for 2^31 of them). Host
 * code repeated on purpose in grid_stride.cu, add_array.cu and vector_add_streams.cu. */
static double uniform(long long i, unsigned seed)
{
    unsigned long long x = ((unsigned long long)i * 2 + 1 + ((unsigned long long)seed << 40)) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return (double)(x >> 40) / 16777216.0;  /* 24 bits: exact in a float */
}

/* Queues the job in `count` pieces, piece k on streams[k]. The chunk size is a ceiling division and the
 * last chunk takes what is left: the article's n // K silently dropped n % K elements. Fork: all streams
 * start after an event recorded on stream 0; join: stream 0 waits for an event at the end of every other
 * stream. Stream 0 then holds the whole job, from the work queued on it before to what comes after. */
static void queue_add(const double *a, const double *b, double *c, double *dev_a, double *dev_b, double *dev_c,
                      long long n, cudaStream_t *streams, int count, cudaEvent_t fork, cudaEvent_t *done)
{
    CUDA_CHECK(cudaEventRecord(fork, streams[0]));
    for (int k = 1; k < count; k++)
        CUDA_CHECK(cudaStreamWaitEvent(streams[k], fork, 0));
    long long chunk = (n + count - 1) / count;
    for (int k = 0; k < count; k++) {
        long long first = k * chunk, size = first + chunk <= n ? chunk : n - first;
        if (size <= 0)
            break;
        cudaStream_t s = streams[k];
        size_t bytes = size * sizeof(double);
        CUDA_CHECK(cudaMemcpyAsync(dev_a + first, a + first, bytes, cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaMemcpyAsync(dev_b + first, b + first, bytes, cudaMemcpyHostToDevice, s));
        unsigned blocks = (unsigned)ceil_div(size, THREADS_PER_BLOCK);
        vector_add<<<blocks, THREADS_PER_BLOCK, 0, s>>>(dev_a + first, dev_b + first, dev_c + first, size);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpyAsync(c + first, dev_c + first, bytes, cudaMemcpyDeviceToHost, s));
    }
    for (int k = 1; k < count; k++) {
        CUDA_CHECK(cudaEventRecord(done[k], streams[k]));
        CUDA_CHECK(cudaStreamWaitEvent(streams[0], done[k], 0));
    }
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 20000000;
    int stream_count = 5, reps = 11;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 2e9, "number of float64 elements (default 20000000, the article's)"},
        {"--streams", CLI_INT, &stream_count, 1, MAX_STREAMS, "streams, one chunk each (default 5, the article's)"},
        {"-r", CLI_INT, &reps, 1, 10000, "timed runs of each (default 11)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Multi-stream vector add: overlap copies and compute over K streams.",
                           options, COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    /* a, b and c on the GPU, and a fourth array while the transfer bound is measured; on the host the
     * same, and the CPU's answer. */
    n = size_to_fit(&dev, "-n", n, 1, 4 * sizeof(double), 5 * sizeof(double), 0);
    size_t bytes = n * sizeof(double);

    cudaStream_t streams[MAX_STREAMS];
    for (int k = 0; k < stream_count; k++)
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
    double *dev_a, *dev_b, *dev_c, *want = (double *)host_alloc(bytes);
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_b, bytes));
    CUDA_CHECK(cudaMalloc(&dev_c, bytes));
    double *ms = (double *)host_alloc(reps * sizeof(double));
    cudaEvent_t fork, done[MAX_STREAMS];  /* ordering only: no time stamps needed */
    CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    for (int k = 0; k < stream_count; k++)
        CUDA_CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
    printf("c = a + b, %lld float64 (%.0f MB per array), %d copy engines\n", n, bytes / 1e6, dev.copy_engines);
    int failures = 0;

    for (int pinned = 1; pinned >= 0; pinned--) {
        double *a, *b, *c;
        if (pinned) {  /* pinning tens of GB takes the driver a minute or two: say what is happening */
            if (3 * bytes > (1ull << 33))
                printf("pinning 3 x %.0f MB of host memory (cudaMallocHost)...\n", bytes / 1e6);
            fflush(stdout);
            CUDA_CHECK(cudaMallocHost(&a, bytes));
            CUDA_CHECK(cudaMallocHost(&b, bytes));
            CUDA_CHECK(cudaMallocHost(&c, bytes));
        } else {
            a = (double *)host_alloc(bytes);
            b = (double *)host_alloc(bytes);
            c = (double *)host_alloc(bytes);
        }
        double fill_start = wall_seconds();
        for (long long i = 0; i < n; i++) {  /* the article's uniform(10, 20) */
            if (i == n / 100)  /* a billion elements take a minute on one core: say so, then how far */
                say_how_long(pinned ? "filling the pinned arrays" : "filling the pageable arrays",
                             (wall_seconds() - fill_start) * 99, "a smaller -n");
            if (i % (1 << 24) == 0)
                say_progress((double)i / n);
            a[i] = 10.0 + 10.0 * uniform(i, 3);
            b[i] = 10.0 + 10.0 * uniform(i, 4);
            want[i] = a[i] + b[i];
            c[i] = 0.0;
        }
        /* The bound: 2 arrays in, 1 out, at the bandwidths of this kind of host memory, measured now;
         * with two copy engines the directions overlap and the slower one bounds the job. */
        double h2d = measure_transfer_bandwidth(bytes, 1, pinned), d2h = measure_transfer_bandwidth(bytes, 0, pinned);
        double in_ms = 2 * bytes / (h2d * 1e9) * 1e3, out_ms = bytes / (d2h * 1e9) * 1e3;
        double bound = dev.copy_engines >= 2 ? (in_ms > out_ms ? in_ms : out_ms) : in_ms + out_ms;
        printf("\n%s host memory: host->device %.1f GB/s, device->host %.1f GB/s: transfer bound %.2f ms\n",
               pinned ? "pinned" : "pageable", h2d, d2h, bound);
        record_value(pinned ? "transfer_bound_pinned" : "transfer_bound_pageable",
                     pinned ? "transfer bound, pinned" : "transfer bound, pageable", bound, "ms");
        /* Both ways' runs (the checked run, the warm-up and reps timed runs), each within about 1.4x the
         * bound (measured on an H200): with -n 2e9 that is minutes, so it is said first. */
        char what[48];
        snprintf(what, sizeof what, "the %s runs", pinned ? "pinned" : "pageable");
        say_how_long(what, 2 * (reps + 2) * 1.4 * bound / 1e3, "a smaller -n or -r");

        int counts[2] = {1, stream_count};
        for (int m = 0; m < COUNT_OF(counts); m++) {
            char label[64], key[64];
            snprintf(label, sizeof label, "%d stream%s, %s", counts[m], counts[m] > 1 ? "s" : "",
                     pinned ? "pinned" : "pageable");
            /* streams_5_pinned */
            snprintf(key, sizeof key, "streams_%d_%s", counts[m], pinned ? "pinned" : "pageable");
            nvtxRangePushA(label);  /* each way's runs as one range on Nsight Systems' timeline */
            /* The checked run, before any timing: exact, one IEEE addition each. */
            queue_add(a, b, c, dev_a, dev_b, dev_c, n, streams, counts[m], fork, done);
            CUDA_CHECK(cudaStreamSynchronize(streams[0]));
            long long wrong = 0;
            for (long long i = 0; i < n; i++)
                wrong += c[i] != want[i];
            failures += check(wrong == 0, "%s, %d stream%s: %lld of %lld elements differ from the CPU",
                              pinned ? "pinned" : "pageable", counts[m], counts[m] > 1 ? "s" : "", wrong, n);
            for (long long i = 0; i < n; i++)
                c[i] = 0.0;
            /* The timer on stream 0 starts before the fork and stops after the join: the whole job. */
            struct timed_runs runs = timed_runs(ms, reps, streams[0]);
            while (timed_run(&runs)) {
                queue_add(a, b, c, dev_a, dev_b, dev_c, n, streams, counts[m], fork, done);
                timed_run_end(&runs);
                say_progress((m * (reps + 2.0) + runs.run + 3) / (2 * (reps + 2.0)));
            }
            nvtxRangePop();
            struct stats s = stats_of(ms, reps);
            print_time(key, label, s);
            printf("  = %.2f x the transfer bound\n", s.median / bound);
        }
        if (!pinned)  /* the article's arrays were pageable NumPy arrays */
            print_article("seed 003, n = 2e7 float64, pageable, host clock: 1 stream 0.89 s, 5 streams 0.21 s (its "
                          "first timing also held the kernel's compilation and the allocations)");
        if (pinned) {
            CUDA_CHECK(cudaFreeHost(a));
            CUDA_CHECK(cudaFreeHost(b));
            CUDA_CHECK(cudaFreeHost(c));
        } else {
            free(a);
            free(b);
            free(c);
        }
    }
    printf("\nFrom pageable memory each copy is staged through a pinned driver buffer while the host waits,\n"
           "so the streams cannot overlap copies with one another: more streams buy little or nothing.\n");

    CUDA_CHECK(cudaEventDestroy(fork));
    for (int k = 0; k < stream_count; k++) {
        CUDA_CHECK(cudaEventDestroy(done[k]));
        CUDA_CHECK(cudaStreamDestroy(streams[k]));
    }
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFree(dev_c));
    free(want);
    free(ms);
    return exit_status(failures);
}
