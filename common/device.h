/* device.h: pick a GPU, say what it is, and know its limits.
 *   struct device_info dev; device_start(device_id, &dev);   no usable device or driver: exit 77
 *   device_need_memory(&dev, bytes, "-n 1e8");               too little free memory: exit 1
 *   double gbs = measure_copy_bandwidth(bytes);              device-to-device copy, read + write
 *   double h2d = measure_transfer_bandwidth(bytes, 1, 1);    host -> device from pinned memory, GB/s */
#ifndef COMMON_DEVICE_H
#define COMMON_DEVICE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

struct device_info {
    int id;
    char name[256];
    int major, minor;        /* compute capability */
    int sms;                 /* streaming multiprocessors */
    size_t total_bytes;      /* global memory */
    size_t l2_bytes;
    int mem_clock_khz;       /* read with cudaDeviceGetAttribute: CUDA 13 dropped it from cudaDeviceProp */
    int bus_width_bits;
    double peak_gbs;         /* 2 (double data rate) x memory clock x bus width: the datasheet limit */
    int copy_engines;        /* cudaDevAttrAsyncEngineCount */
    int driver_version, runtime_version;  /* 13000 = 13.0 */
};

void device_start(int id, struct device_info *dev);
void device_need_memory(const struct device_info *dev, size_t bytes, const char *smaller);
double measure_copy_bandwidth(size_t bytes);
double measure_transfer_bandwidth(size_t bytes, int to_device, int pinned);
void version_string(int version, char *text, size_t size);

#define NO_DEVICE_EXIT 77

#ifdef __cplusplus
}
#endif
#endif
