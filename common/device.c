/* device.c: see device.h. */
#include "device.h"
#include "check.h"
#include "stats.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void version_string(int version, char *text, size_t size)
{
    snprintf(text, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

void device_start(int id, struct device_info *dev)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        /* No driver, no GPU, or CUDA_VISIBLE_DEVICES="": the tests count this exit as "skipped". */
        fprintf(stderr, "no usable CUDA device: %s (%s); this program needs an NVIDIA GPU and driver\n",
                err == cudaSuccess ? "no device found" : cudaGetErrorString(err),
                err == cudaSuccess ? "count 0" : cudaGetErrorName(err));
        exit(NO_DEVICE_EXIT);
    }
    if (id < 0 || id >= count) {
        fprintf(stderr, "--device %d: no such device; this machine has %d (use 0..%d)\n", id, count,
                count - 1);
        exit(2);
    }
    CUDA_CHECK(cudaSetDevice(id));

    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    memset(dev, 0, sizeof *dev);
    dev->id = id;
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    dev->major = prop.major;
    dev->minor = prop.minor;
    dev->sms = prop.multiProcessorCount;
    dev->total_bytes = prop.totalGlobalMem;
    dev->l2_bytes = (size_t)prop.l2CacheSize;
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->mem_clock_khz, cudaDevAttrMemoryClockRate, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->copy_engines, cudaDevAttrAsyncEngineCount, id));
    dev->peak_gbs = 2.0 * dev->mem_clock_khz * 1e3 * (dev->bus_width_bits / 8) / 1e9;
    CUDA_CHECK(cudaDriverGetVersion(&dev->driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&dev->runtime_version));

    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    printf("device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB (%.1f free), L2 %.0f MiB\n",
           id, dev->name, dev->major, dev->minor, dev->sms, total / 1073741824.0,
           free_bytes / 1073741824.0, dev->l2_bytes / 1048576.0);
}

void device_need_memory(const struct device_info *dev, size_t bytes, const char *smaller)
{
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    /* Keep a little room for the CUDA context's own allocations and library workspaces. */
    if (bytes + (64u << 20) <= free_bytes)
        return;
    fprintf(stderr, "not enough memory on %s: this size needs %.2f GiB, %.2f GiB of %.2f GiB are free; "
                    "try a smaller size (%s)\n",
            dev->name, bytes / 1073741824.0, free_bytes / 1073741824.0, total / 1073741824.0, smaller);
    exit(1);
}

double measure_copy_bandwidth(size_t bytes)
{
    void *src = NULL, *dst = NULL;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemset(src, 1, bytes));
    CUDA_CHECK(cudaMemset(dst, 0, bytes));
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));  /* warm-up */

    enum { REPS = 21 };
    double ms[REPS];
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    for (int r = 0; r < REPS; r++) {
        gpu_timer_start(&timer, 0);
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
        ms[r] = gpu_timer_stop(&timer);
    }
    gpu_timer_destroy(&timer);
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
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    for (int r = -1; r < REPS; r++) {  /* r = -1: warm-up */
        gpu_timer_start(&timer, 0);
        if (to_device)
            CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, 0));
        else
            CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0));
        float t = gpu_timer_stop(&timer);
        if (r >= 0)
            ms[r] = t;
    }
    gpu_timer_destroy(&timer);
    CUDA_CHECK(cudaFree(dev));
    if (pinned)
        CUDA_CHECK(cudaFreeHost(host));
    else
        free(host);
    return bytes / (stats_of(ms, REPS).median * 1e-3) / 1e9;
}
