/* A cheat: CUB's device-wide histogram, which the statement forbids (cub::DeviceHistogram also needs
 * memory of its own, which the rules refuse). */
#include <cub/device/device_histogram.cuh>

#define BINS 256

__global__ void histogram(const unsigned char *data, long long n, unsigned *bins) {}

void lab_histogram(const unsigned char *data, long long n, unsigned *bins, int sms)
{
    void *scratch = 0;
    size_t bytes = 0;
    cub::DeviceHistogram::HistogramEven(scratch, bytes, data, (int *)bins, BINS + 1, 0, BINS, (int)n);
    cudaMalloc(&scratch, bytes);
    cub::DeviceHistogram::HistogramEven(scratch, bytes, data, (int *)bins, BINS + 1, 0, BINS, (int)n);
    cudaFree(scratch);
}
