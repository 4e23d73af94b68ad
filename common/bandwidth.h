/* bandwidth.h: the limits a program measures on its GPU before it runs, to read its own speed against.
 *   double gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);   device-to-device copy, read + write, GB/s
 *   double h2d = measure_transfer_bandwidth(bytes, 1, 1);    host -> device from pinned memory, GB/s
 * Call them before allocating the program's own arrays: they take what they need (the copy: twice
 * `bytes`, less if less is free) and give it back. COPY_PROBE_BYTES, 1 GiB, is far more than any L2
 * cache, so the copy measures DRAM. Each is the median of its runs (stats.h), timed by events (timer.h). */
#ifndef COMMON_BANDWIDTH_H
#define COMMON_BANDWIDTH_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define COPY_PROBE_BYTES (1u << 30)
double measure_copy_bandwidth(size_t bytes);
double measure_transfer_bandwidth(size_t bytes, int to_device, int pinned);

#ifdef __cplusplus
}
#endif
#endif
