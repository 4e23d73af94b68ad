/* grid_stride.cu: Part 1, Example 1.4 and the timing section: one thread per element vs a grid-stride loop.
 * With a grid-stride loop a fixed grid (BLOCKS_PER_SM = 32 blocks per SM here) walks over an array of any length, each
 * thread stepping by the total number of threads. Adding arrays is bound by memory, not arithmetic, so
 * each kernel is measured in GB/s against the device-to-device copy bandwidth measured in the same run.
 *   make ch1 && ./ch1_embarrassing/grid_stride           (N = 1,000,000 as in the article: fits in L2)
 *   ./ch1_embarrassing/grid_stride -n 1e8                (400 MB arrays: DRAM bandwidth)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* ==== Kernels ==== */

/* Example 1.3's kernel and its index, copied from add_array.cu (tests/copies.t keeps them equal). */
__device__ long long global_index(void)
{
    return threadIdx.x + (long long)blockDim.x * blockIdx.x;
}

__global__ void add_array(const float *a, const float *b, float *c, long long n)
{
    long long i = global_index();
    if (i < n)  /* the last block may reach past the end of the arrays */
        c[i] = a[i] + b[i];
}

/* Example 1.4: a grid-stride loop. The grid no longer depends on n; each thread handles elements
 * i, i + stride, i + 2 stride, ... where stride is the number of threads in the whole grid. Neighbouring
 * threads still touch neighbouring elements, so every step of the warp is one coalesced access. */
__global__ void add_array_gs(const float *a, const float *b, float *c, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

/* Going further (not in the article): 16-byte accesses. A float4 load moves four elements with one
 * instruction, so a warp asks for 512 contiguous bytes at once instead of 128: a quarter of the load and
 * store instructions and address arithmetic, and more bytes in flight per thread, which is what keeps
 * HBM busy. cudaMalloc returns 256-byte aligned memory, so the float4 view of the arrays is aligned; the
 * last n % 4 elements are added one by one. */
__global__ void add_array_gs_float4(const float *a, const float *b, float *c, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    long long first = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
    float4 *c4 = (float4 *)c;
    for (long long i = first; i < n / 4; i += stride) {
        float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    for (long long i = n / 4 * 4 + first; i < n; i += stride)
        c[i] = a[i] + b[i];
}

/* ==== Host helpers ==== */

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

enum { THREADS_PER_BLOCK = 256 };
enum version { ONE_PER_ELEMENT, GRID_STRIDE, FLOAT4, VERSIONS };
static const char *names[VERSIONS] = {"add_array (1 thread/element)", "add_array_gs (grid-stride)",
                                      "going further: float4 loads"};
/* their rows' keys in --csv */
static const char *keys[VERSIONS] = {"add_array", "add_array_gs", "add_array_gs_float4"};

/* Queues one version on stream 0. One thread per element takes as many blocks as n needs; the
 * grid-stride loops a fixed grid of BLOCKS_PER_SM blocks per SM, whatever n is. */
static void launch(enum version v, const float *a, const float *b, float *c, long long n, int sms)
{
    int fixed_grid = BLOCKS_PER_SM * sms;
    switch (v) {
    case ONE_PER_ELEMENT:
        add_array<<<(unsigned)ceil_div(n, THREADS_PER_BLOCK), THREADS_PER_BLOCK>>>(a, b, c, n);
        break;
    case GRID_STRIDE:
        add_array_gs<<<fixed_grid, THREADS_PER_BLOCK>>>(a, b, c, n);
        break;
    default:
        add_array_gs_float4<<<fixed_grid, THREADS_PER_BLOCK>>>(a, b, c, n);
    }
    CHECK_LAUNCH();
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long n = 1000000;
    int reps = 101;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 4e9, "number of float32 elements (default 1000000, the article's)"},
        {"-r", CLI_INT, &reps, 1, 100000, "timed runs of each kernel (default 101)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "Part 1, Example 1.4: one thread per element vs a grid-stride loop.",
                           options, COUNT_OF(options));
    results_to(results_path);
    if (ceil_div(n, THREADS_PER_BLOCK) > 2147483647LL)
        cli_usage_error(argv[0], "-n %lld needs more blocks of %d threads than the grid's x limit 2^31 - 1", n,
                        THREADS_PER_BLOCK);
    struct device_info dev;
    device_start(device, &dev);
    /* Three arrays on the GPU; on the host the same and a fourth for the GPU's answer. */
    n = size_to_fit(&dev, "-n", n, 1, 3 * sizeof(float), 4 * sizeof(float), 0);
    size_t bytes = n * sizeof(float);

    /* The limit, measured before the arrays take their memory: a large device-to-device copy, which
     * reads and writes each byte once (at least as large as the arrays, so that it too comes from DRAM). */
    size_t copy_bytes = bytes > COPY_PROBE_BYTES ? bytes : COPY_PROBE_BYTES;
    double copy_gbs = measure_copy_bandwidth(copy_bytes);

    float *a = (float *)host_alloc(bytes), *b = (float *)host_alloc(bytes), *c = (float *)host_alloc(bytes);
    float *gpu_c = (float *)host_alloc(bytes);
    for (long long i = 0; i < n; i++) {
        a[i] = (float)uniform(i, 1);
        b[i] = (float)uniform(i, 2);
    }
    float *dev_a, *dev_b, *dev_c;
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_b, bytes));
    CUDA_CHECK(cudaMalloc(&dev_c, bytes));
    CUDA_CHECK(cudaMemcpy(dev_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dev_b, b, bytes, cudaMemcpyHostToDevice));

    printf("N = %lld float32: %lld blocks of %d threads for one thread per element, %d (%d x %d SMs) "
           "for the grid-stride loops\n", n, ceil_div(n, THREADS_PER_BLOCK), THREADS_PER_BLOCK, BLOCKS_PER_SM * dev.sms,
           BLOCKS_PER_SM, dev.sms);

    /* Warps, waves and occupancy. A block runs on one SM, as warps of 32 threads that issue together. An
     * SM holds as many blocks at once as its thread slots, registers and shared memory allow; the rest of
     * the grid waits, so a grid runs in waves. The runtime says what a kernel takes and how many of its
     * blocks fit (the occupancy API). */
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, add_array_gs));
    int resident = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, add_array_gs, THREADS_PER_BLOCK, 0));
    printf("add_array_gs: %d registers a thread, %zu bytes of static shared memory; %d blocks of %d threads (%d warps "
           "each) fit on an SM at once, %d of its %d thread slots (occupancy %.0f%%): the grid of %d blocks runs in "
           "%.1f waves, one thread per element (%lld blocks) in %.1f\n",
           attr.numRegs, attr.sharedSizeBytes, resident, THREADS_PER_BLOCK, THREADS_PER_BLOCK / 32,
           resident * THREADS_PER_BLOCK, dev.threads_per_sm, 100.0 * resident * THREADS_PER_BLOCK / dev.threads_per_sm,
           BLOCKS_PER_SM * dev.sms, (double)BLOCKS_PER_SM / resident, ceil_div(n, THREADS_PER_BLOCK),
           (double)ceil_div(n, THREADS_PER_BLOCK) / ((double)resident * dev.sms));

    /* Correct first: each kernel's output is compared with the CPU, element by element, exactly (one
     * IEEE addition each side). The output is poisoned with NaN first, so a skipped element shows. */
    for (long long i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    int failures = 0;
    for (int v = 0; v < VERSIONS; v++) {
        CUDA_CHECK(cudaMemset(dev_c, 0xff, bytes));
        launch((enum version)v, dev_a, dev_b, dev_c, n, dev.sms);
        CUDA_CHECK(cudaMemcpy(gpu_c, dev_c, bytes, cudaMemcpyDeviceToHost));
        long long wrong = 0;
        for (long long i = 0; i < n; i++)
            wrong += gpu_c[i] != c[i];
        failures += check(wrong == 0, "%s: %lld of %lld elements differ from the CPU", names[v], wrong, n);
    }
    free(gpu_c);
    if (failures)
        return 1;

    printf("\nlimit: a large device-to-device copy moves %.0f GB/s (read + write), %.0f%% of the %.0f GB/s "
           "that the memory clock and bus width give\n", copy_gbs, 100.0 * copy_gbs / dev.peak_gbs, dev.peak_gbs);

    /* Time each kernel: one warm-up launch (the first pays for loading the module), then reps runs
     * between two events on the stream. Each add moves 12 bytes: two 4-byte reads and one write. */
    printf("kernel time, %d runs each; bandwidth counts 12 bytes per element:\n", reps);
    double *ms = (double *)host_alloc(reps * sizeof(double));
    for (int v = 0; v < VERSIONS; v++) {
        struct timed_runs runs = timed_runs(ms, reps, 0);
        while (timed_run(&runs))
            launch((enum version)v, dev_a, dev_b, dev_c, n, dev.sms);
        print_bandwidth(keys[v], names[v], stats_of(ms, reps), 3.0 * bytes, copy_gbs, "of copy");
    }
    /* Part 1's figures are a mean and a standard deviation of 101 runs, these lines' median leads. */
    print_article("Part 1, a T4, N = 1e6, mean +- std of 101 runs: add_array 131 +- 36 us, add_array_gs 140 +- 36 us");
    /* The CPU on one core, by the wall clock; c was written once above, so no first-touch page faults. */
    int cpu_reps = reps < 5 ? reps : 5;
    for (int r = 0; r < cpu_reps; r++) {
        double start = wall_seconds();
        for (long long i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        ms[r] = (wall_seconds() - start) * 1e3;
    }
    print_bandwidth("cpu", "CPU loop, one core", stats_of(ms, cpu_reps), 3.0 * bytes, 0, "");  /* one core binds it */

    /* The article reports GFLOP/s; an add does one FLOP per 12 bytes, so that number is a bandwidth. */
    if (3 * bytes < dev.l2_bytes)
        printf("\nnote: the three arrays (%.1f MB) fit in the %.0f MB L2 cache, so after the first run the "
               "kernels read from L2:\nthese figures measure the cache and can pass the DRAM copy limit. "
               "Use -n 1e8 or more to measure DRAM.\n", 3.0 * bytes / 1e6, dev.l2_bytes / 1e6);
    if (n < 50000000)
        printf("\nhint: at this size launch overhead still shows; -n 1e8 or more saturates the bandwidth.\n");

    free(ms);
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFree(dev_c));
    free(a);
    free(b);
    free(c);
    return exit_status(0);
}
