/* device.c: see device.h. */
#define _POSIX_C_SOURCE 200809L
#include "device.h"
#include "check.h"
#include "csv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIB 1073741824.0

/* What an SM does per clock, by compute capability: the device reports the number of SMs and the
 * clock, not how many fused multiply-adds (2 FLOP each) an SM finishes per clock. From the CUDA C++
 * Programming Guide's table "Throughput of Native Arithmetic Instructions" and NVIDIA's architecture
 * whitepapers (the TF32 column: dense tensor-core rates, no sparsity; 0 where there is no TF32);
 * tests/unit_common.c checks the peaks they give against the datasheets of ten cards. A compute
 * capability not listed takes the row of the nearest older one, and device_start says so. */
static const struct arch_facts arch_table[] = {
    /* cc      FP32 FP64 FP64 matrix TF32 matrix  examples */
    {7, 0,     64,  32,  32,    0,  "Volta: V100"},
    {7, 5,     64,   2,   2,    0,  "Turing: T4, GTX 16xx, RTX 20xx"},
    {8, 0,     64,  32,  64,  512,  "Ampere: A100, A30"},
    {8, 6,    128,   2,   2,  128,  "Ampere: RTX 30xx, A10, A40"},
    {8, 7,    128,   2,   2,  512,  "Ampere: Jetson Orin (an SM's tensor cores as the A100's)"},
    {8, 9,    128,   2,   2,  128,  "Ada: RTX 40xx, L4, L40"},
    {9, 0,    128,  64, 128, 1024,  "Hopper: H100, H200"},
    {10, 0,   128,  64,  64, 2048,  "Blackwell: B200"},
    {12, 0,   128,   2,   2,  128,  "Blackwell: RTX 50xx"},
};

const struct arch_facts *arch_facts(int major, int minor, int *exact)
{
    int count = sizeof arch_table / sizeof arch_table[0], best = 0;
    for (int i = 0; i < count; i++)  /* the newest row not newer than the device */
        if (arch_table[i].major * 10 + arch_table[i].minor <= major * 10 + minor)
            best = i;
    if (exact)
        *exact = arch_table[best].major == major && arch_table[best].minor == minor;
    return &arch_table[best];
}

double peak_gflops(int lanes, int sms, int clock_khz)
{
    return 2.0 * lanes * sms * (clock_khz * 1e3) / 1e9;
}

double memory_peak_gbs(int mem_clock_khz, int bus_width_bits)
{
    return 2.0 * (mem_clock_khz * 1e3) * (bus_width_bits / 8) / 1e9;
}

void version_string(int version, char *text, size_t size)
{
    snprintf(text, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

void device_start(int id, struct device_info *dev)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        /* No driver, no GPU, or CUDA_VISIBLE_DEVICES="": the tests count this exit as "skipped". With no
         * driver at all the runtime says "driver version is insufficient"; the driver version it then
         * reports is 0, which tells the two apart. */
        int driver = 0;
        cudaDriverGetVersion(&driver);
        /* The driver's libraries without its kernel module (a new kernel, secure boot, a container or
         * chroot without the device) report a driver version but no device. WSL has no /proc entry. */
        int no_module = access("/proc/driver/nvidia/version", F_OK) != 0 && access("/dev/dxg", F_OK) != 0;
        const char *why = err == cudaSuccess ? "no device found (count 0)"
                        : driver == 0        ? "no NVIDIA driver is installed or loaded"
                        : no_module          ? "no NVIDIA driver is loaded (its libraries are here, "
                                               "its kernel module is not)"
                                             : cudaGetErrorString(err);
        fprintf(stderr, "no usable CUDA device: %s%s%s; this program needs an NVIDIA GPU and driver\n", why,
                err != cudaSuccess && driver ? ", " : "", err != cudaSuccess && driver ? cudaGetErrorName(err) : "");
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
    dev->threads_per_sm = prop.maxThreadsPerMultiProcessor;
    dev->shared_per_block = prop.sharedMemPerBlock;
    dev->shared_per_sm = prop.sharedMemPerMultiprocessor;
    dev->total_bytes = prop.totalGlobalMem;
    dev->l2_bytes = (size_t)prop.l2CacheSize;
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->clock_khz, cudaDevAttrClockRate, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->mem_clock_khz, cudaDevAttrMemoryClockRate, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&dev->copy_engines, cudaDevAttrAsyncEngineCount, id));
    CUDA_CHECK(cudaDriverGetVersion(&dev->driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&dev->runtime_version));

    int exact = 0;
    const struct arch_facts *arch = arch_facts(dev->major, dev->minor, &exact);
    dev->peak_gbs = memory_peak_gbs(dev->mem_clock_khz, dev->bus_width_bits);
    dev->fp32_lanes = arch->fp32_lanes;
    dev->fp64_lanes = arch->fp64_lanes;
    dev->peak_fp32_gflops = peak_gflops(arch->fp32_lanes, dev->sms, dev->clock_khz);
    dev->peak_fp64_gflops = peak_gflops(arch->fp64_lanes, dev->sms, dev->clock_khz);
    dev->peak_fp64_matrix_gflops = peak_gflops(arch->fp64_matrix, dev->sms, dev->clock_khz);
    dev->peak_tf32_matrix_gflops = peak_gflops(arch->tf32_matrix, dev->sms, dev->clock_khz);

    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    printf("device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB (%.1f free), L2 %.0f MiB\n",
           id, dev->name, dev->major, dev->minor, dev->sms, total / GIB, free_bytes / GIB,
           dev->l2_bytes / 1048576.0);
    char driver[16], runtime[16], line[400];  /* every CSV file's first line names this GPU (csv.h) */
    version_string(dev->driver_version, driver, sizeof driver);
    version_string(dev->runtime_version, runtime, sizeof runtime);
    snprintf(line, sizeof line, "%s, compute capability %d.%d, driver %s, CUDA runtime %s", dev->name, dev->major,
             dev->minor, driver, runtime);
    csv_measured_on(line);
    if (!exact)
        printf("note: compute capability %d.%d is not in common/device.c's table; its FP32/FP64 peaks "
               "assume %d.%d's lanes per SM\n", dev->major, dev->minor, arch->major, arch->minor);
}

/* The largest n with bytes_each x n^power <= bytes_free, rounded down to two significant digits so
 * that the size reads well (930000000, not 938427123); 0 if not even n = 1 fits. */
long long largest_size(double bytes_free, double bytes_each, int power)
{
    if (bytes_each <= 0)
        return LLONG_MAX;
    if (bytes_free < bytes_each)
        return 0;
    double n = floor(pow(bytes_free / bytes_each, 1.0 / power) * (1 + 1e-12));
    while (n > 1 && pow(n, power) * bytes_each > bytes_free)  /* pow's rounding */
        n -= 1;
    double step = 1;
    while (n >= 100 * step)
        step *= 10;
    return (long long)(floor(n / step) * step);
}

/* Reads one number of bytes from a file; -1 if it is absent or not a number ("max"). */
static double read_bytes(const char *path)
{
    FILE *f = fopen(path, "r");
    double value = -1;
    if (f) {
        if (fscanf(f, "%lf", &value) != 1)
            value = -1;
        fclose(f);
    }
    return value;
}

double host_available_bytes(void)
{
    double available = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &available) == 1) {
            available *= 1024;
            break;
        }
    if (f)
        fclose(f);
    if (available <= 0)
        available = (double)sysconf(_SC_AVPHYS_PAGES) * sysconf(_SC_PAGESIZE);
    /* In a container the cgroup's limit may be lower than what the machine has (v2, then v1). */
    double limit = read_bytes("/sys/fs/cgroup/memory.max"), used = read_bytes("/sys/fs/cgroup/memory.current");
    if (limit < 0) {
        limit = read_bytes("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        used = read_bytes("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    }
    if (limit > 0 && used >= 0 && limit - used < available)
        available = limit - used > 0 ? limit - used : 0;
    return available > 0 ? available : 0;
}

void device_need_memory(const struct device_info *dev, size_t bytes, const char *smaller)
{
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (bytes + DEVICE_RESERVE <= free_bytes)
        return;
    fprintf(stderr, "not enough memory on %s: this size needs %.2f GiB, %.2f GiB of %.2f GiB are free; "
                    "try a smaller size (%s)\n",
            dev->name, (bytes + DEVICE_RESERVE) / GIB, free_bytes / GIB, total / GIB, smaller);
    exit(1);
}
