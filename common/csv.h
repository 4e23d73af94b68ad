/* csv.h: measurement files that the gnuplot scripts read.
 *   FILE *f = csv_open(path, "variant,n,median_ms,gbs");   output_open: a temporary file
 *   csv_row(f, "%s,%lld,%.4f,%.1f", name, n, ms, gbs);     a failed write: exit 1
 *   csv_close(f);                                           output_close: the file appears whole
 * The first line is a '#' comment saying what measured it: the GPU, its compute capability, the driver
 * and CUDA versions (device_start gives them: csv_measured_on), and the date. */
#ifndef COMMON_CSV_H
#define COMMON_CSV_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

void csv_measured_on(const char *device_line);  /* the first call wins */
FILE *csv_open(const char *path, const char *header);
void csv_row(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void csv_close(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
