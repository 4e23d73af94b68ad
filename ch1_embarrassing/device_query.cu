/* device_query.cu: the appendix of Part 1 (and the French page's introspection): what the GPU can do.
 * Prints the limits a kernel launch must respect, correctly labelled (the original printed the largest
 * block dimension as "blocks per grid"), and the memory system behind the bandwidth figures of the
 * course. It then launches at the printed limits, and one past them, to show the limits are real.
 *   make ch1 && ./ch1_embarrassing/device_query
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"

/* Each thread counts itself; the total shows how many threads really ran. */
__global__ void count_threads(unsigned long long *count)
{
    atomicAdd(count, 1ULL);
}

/* Launches count_threads on the given grid; returns the CUDA error (the launch's, or the kernel's). */
static cudaError_t try_launch(dim3 blocks, dim3 threads, unsigned long long *dev_count,
                              unsigned long long *counted)
{
    CUDA_CHECK(cudaMemset(dev_count, 0, sizeof *dev_count));
    count_threads<<<blocks, threads>>>(dev_count);
    cudaError_t err = cudaGetLastError();  /* a bad launch shape is reported here, and cleared */
    if (err != cudaSuccess)
        return err;
    CUDA_CHECK(cudaMemcpy(counted, dev_count, sizeof *counted, cudaMemcpyDeviceToHost));
    return cudaSuccess;
}

static int refused(cudaError_t err)
{
    return err == cudaErrorInvalidConfiguration || err == cudaErrorInvalidValue;
}

int main(int argc, char **argv)
{
    int device = cli_parse(argc, argv, "Part 1 appendix: the device's attributes and launch limits.", NULL, 0);
    struct device_info dev;
    device_start(device, &dev);
    struct cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    size_t free_bytes, total_bytes;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    char driver[16], runtime[16];
    version_string(dev.driver_version, driver, sizeof driver);
    version_string(dev.runtime_version, runtime, sizeof runtime);

    printf("\nname                               %s\n", p.name);
    printf("compute capability                 %d.%d\n", p.major, p.minor);
    printf("driver / runtime                   CUDA %s / %s\n", driver, runtime);
    printf("\nlaunch limits\n");
    printf("max threads per block              %d\n", p.maxThreadsPerBlock);
    printf("max block dimensions (x, y, z)     %d x %d x %d   (threads; x*y*z <= %d)\n", p.maxThreadsDim[0],
           p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxThreadsPerBlock);
    printf("max grid dimensions (x, y, z)      %d x %d x %d   (blocks; x is 2^31 - 1)\n", p.maxGridSize[0],
           p.maxGridSize[1], p.maxGridSize[2]);
    printf("warp size                          %d threads\n", p.warpSize);
    printf("\nthe chip\n");
    printf("streaming multiprocessors (SMs)    %d\n", p.multiProcessorCount);
    printf("max resident threads per SM        %d (%d warps)\n", p.maxThreadsPerMultiProcessor,
           p.maxThreadsPerMultiProcessor / p.warpSize);
    printf("max resident blocks per SM         %d\n", p.maxBlocksPerMultiProcessor);
    printf("32-bit registers per block / SM    %d / %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
    printf("shared memory per block            %zu KiB (up to %zu KiB when a kernel opts in)\n",
           p.sharedMemPerBlock / 1024, p.sharedMemPerBlockOptin / 1024);
    printf("shared memory per SM               %zu KiB\n", p.sharedMemPerMultiprocessor / 1024);
    printf("\narithmetic (lanes per SM: common/device.c's table, by compute capability)\n");
    printf("SM clock                           %.0f MHz (the highest the device reports)\n", dev.clock_khz / 1e3);
    printf("FP32 lanes per SM                  %d    -> peak %.1f TFLOP/s (2 FLOP x lanes x SMs x clock)\n",
           dev.fp32_lanes, dev.peak_fp32_gflops / 1e3);
    printf("FP64 lanes per SM                  %d    -> peak %.2f TFLOP/s", dev.fp64_lanes, dev.peak_fp64_gflops / 1e3);
    if (dev.peak_fp64_matrix_gflops > dev.peak_fp64_gflops)
        printf(", %.1f in a matrix product (tensor cores)", dev.peak_fp64_matrix_gflops / 1e3);
    printf("\n");
    if (dev.peak_tf32_matrix_gflops > 0)
        printf("TF32 multiply-adds per SM          %d -> peak %.0f TFLOP/s on the tensor cores (matrix products)\n",
               arch_facts(dev.major, dev.minor, NULL)->tf32_matrix, dev.peak_tf32_matrix_gflops / 1e3);
    printf("\nmemory\n");
    printf("global memory                      %.2f GiB, of which %.2f GiB free now (cudaMemGetInfo)\n",
           total_bytes / 1073741824.0, free_bytes / 1073741824.0);
    printf("L2 cache                           %.0f MiB\n", dev.l2_bytes / 1048576.0);
    printf("memory bus width                   %d bits\n", dev.bus_width_bits);
    printf("memory clock                       %.0f MHz\n", dev.mem_clock_khz / 1e3);
    printf("implied peak bandwidth             %.0f GB/s  (2 transfers per clock x clock x bus width / 8)\n",
           dev.peak_gbs);
    printf("copy engines                       %d  (2 or more: host->device and device->host copies overlap)\n",
           dev.copy_engines);

    /* The limits are real: a launch at each limit runs every thread, one past it is refused. Drivers
     * name the refusal cudaErrorInvalidConfiguration or (CUDA 13 on Hopper) cudaErrorInvalidValue. */
    unsigned long long *dev_count, counted = 0;
    CUDA_CHECK(cudaMalloc(&dev_count, sizeof *dev_count));
    int failures = 0;
    cudaError_t err = try_launch(dim3(1), dim3(p.maxThreadsPerBlock), dev_count, &counted);
    failures += check(err == cudaSuccess && counted == (unsigned long long)p.maxThreadsPerBlock,
                      "a block of %d threads ran %llu threads", p.maxThreadsPerBlock, counted);
    err = try_launch(dim3(1), dim3(p.maxThreadsPerBlock + 1), dev_count, &counted);
    failures += check(refused(err), "a block of %d threads is refused: %s",
                      p.maxThreadsPerBlock + 1, cudaGetErrorName(err));
    err = try_launch(dim3(1, p.maxGridSize[1]), dim3(1), dev_count, &counted);
    failures += check(err == cudaSuccess && counted == (unsigned long long)p.maxGridSize[1],
                      "a grid of 1 x %d blocks ran %llu blocks", p.maxGridSize[1], counted);
    err = try_launch(dim3(1, p.maxGridSize[1] + 1), dim3(1), dev_count, &counted);
    failures += check(refused(err), "a grid of 1 x %d blocks is refused: %s",
                      p.maxGridSize[1] + 1, cudaGetErrorName(err));
    CUDA_CHECK(cudaFree(dev_count));
    return exit_status(failures);
}
