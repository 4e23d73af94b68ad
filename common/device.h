/* device.h: pick a GPU and know its facts: what it reports, and its peaks from one table.
 *   struct device_info dev; device_start(device_id, &dev);   no usable device or driver: exit 77
 *   device_need_memory(&dev, bytes, "-n 1e8");               enough free, or exit 1 saying what to try
 *   blocks = ceil_div(n, threads);                           whole blocks that cover n items
 * What the device reports is read in device_start; what it does not report (arithmetic lanes per SM)
 * comes from one table by compute capability, arch_facts() in device.c. */
#ifndef COMMON_DEVICE_H
#define COMMON_DEVICE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

struct device_info {
    int id;
    char name[256];
    int major, minor;             /* compute capability */
    int sms;                      /* streaming multiprocessors */
    int threads_per_sm;           /* resident threads per SM: 1024 on 7.5, 1536 on 8.6/8.9/12.x, 2048 on 8.0/9.0 */
    size_t shared_per_block;      /* without opting in (48 KiB) */
    size_t shared_per_sm;
    size_t total_bytes;           /* global memory */
    size_t l2_bytes;
    int clock_khz;                /* the SM clock the device reports (its boost clock) */
    int mem_clock_khz;            /* read with cudaDeviceGetAttribute: CUDA 13 dropped it from cudaDeviceProp */
    int bus_width_bits;
    int copy_engines;             /* cudaDevAttrAsyncEngineCount */
    int driver_version, runtime_version;  /* 13000 = 13.0 */
    /* Derived: */
    double peak_gbs;              /* 2 (double data rate) x memory clock x bus width: the datasheet limit */
    int fp32_lanes, fp64_lanes;   /* multiply-adds per SM per clock, from arch_facts() */
    double peak_fp32_gflops, peak_fp64_gflops, peak_fp64_matrix_gflops;
    double peak_tf32_matrix_gflops;  /* tensor cores, TF32 inputs, fp32 sums; 0 before 8.0 */
};

/* One row of the table: what an SM of a compute capability does per clock. */
struct arch_facts {
    int major, minor;
    int fp32_lanes;       /* FP32 fused multiply-adds per SM per clock */
    int fp64_lanes;       /* FP64 fused multiply-adds per SM per clock */
    int fp64_matrix;      /* the same in a matrix product (DGEMM): tensor cores double it on 8.0 and 9.0 */
    int tf32_matrix;      /* multiply-adds per SM per clock on the tensor cores with TF32 inputs (0: none) */
    const char *cards;
};

/* The articles' grids: 32 blocks per SM (their 32 x 80, 32 x 40 and 32 x 20 were 32 per SM of their cards). */
enum { BLOCKS_PER_SM = 32 };

/* Blocks of `per_block` that cover `count` items: the last block may overhang. Kernels may call it too
 * (nvcc compiles it for the GPU as well; a C compiler sees a plain inline function). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline long long ceil_div(long long count, long long per_block)
{
    return (count + per_block - 1) / per_block;
}

void device_start(int id, struct device_info *dev);
const struct arch_facts *arch_facts(int major, int minor, int *exact);  /* never NULL */
double peak_gflops(int lanes, int sms, int clock_khz);                  /* 2 x lanes x SMs x clock */
double memory_peak_gbs(int mem_clock_khz, int bus_width_bits);

long long largest_size(double bytes_free, double bytes_each, int power);  /* 2 significant digits */
double host_available_bytes(void);  /* MemAvailable, or the cgroup's limit if lower; 0 if unknown */
void device_need_memory(const struct device_info *dev, size_t bytes, const char *smaller);
void version_string(int version, char *text, size_t size);

/* Free memory kept back from every size decision: the CUDA context grows as kernels load and
 * launch, and CUB, cuBLAS and the partial-sum arrays need a little scratch. */
#define DEVICE_RESERVE (64.0 * 1048576)

#define NO_DEVICE_EXIT 77

#ifdef __cplusplus
}
#endif
#endif
