/* bandwidth.c: see bandwidth.h. */
#include "bandwidth.h"
#include "check.h"
#include "device.h"
#include "stats.h"
#include "timer.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double measure_copy_bandwidth(size_t bytes)
{
    /* Two buffers of `bytes`, or of what is free: on a small card the probe shrinks, it never fails. */
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    size_t room = free_bytes > 2 * DEVICE_RESERVE ? (size_t)((free_bytes - DEVICE_RESERVE) / 2) : (1u << 20);
    if (bytes > room) {
        bytes = room / (1u << 20) * (1u << 20);
        printf("note: the copy probe uses 2 x %.0f MB, what is free\n", bytes / 1e6);
    }
    void *src = NULL, *dst = NULL;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemset(src, 1, bytes));
    CUDA_CHECK(cudaMemset(dst, 0, bytes));

    enum { REPS = 21 };
    double ms[REPS];
    struct timed_runs runs = timed_runs(ms, REPS, 0);
    runs.quiet = 1;  /* -r does not set these runs: the program's own say how long they take */
    while (timed_run(&runs))
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    /* A copy reads every byte once and writes it once. */
    return 2.0 * bytes / (stats_of(ms, REPS).median * 1e-3) / 1e9;
}

double measure_transfer_bandwidth(size_t bytes, int to_device, int pinned)
{
    void *host = NULL, *dev = NULL;
    if (pinned)
        CUDA_CHECK(cudaMallocHost(&host, bytes));
    else if (!(host = malloc(bytes))) {
        fprintf(stderr, "out of host memory for %zu bytes\n", bytes);
        exit(1);
    }
    memset(host, 1, bytes);  /* touch every page, so the timing holds no first-touch faults */
    CUDA_CHECK(cudaMalloc(&dev, bytes));
    CUDA_CHECK(cudaMemset(dev, 0, bytes));

    enum { REPS = 11 };
    double ms[REPS];
    struct timed_runs runs = timed_runs(ms, REPS, 0);
    runs.quiet = 1;
    while (timed_run(&runs)) {
        if (to_device)
            CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, 0));
        else
            CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0));
    }
    CUDA_CHECK(cudaFree(dev));
    if (pinned)
        CUDA_CHECK(cudaFreeHost(host));
    else
        free(host);
    return bytes / (stats_of(ms, REPS).median * 1e-3) / 1e9;
}
