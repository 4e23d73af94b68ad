/* csv.c: see csv.h. */
#define _POSIX_C_SOURCE 200809L
#include "csv.h"
#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

FILE *csv_open(const char *path, const struct device_info *dev, const char *header)
{
    FILE *f = output_open(path);
    char driver[16], runtime[16], date[32];
    version_string(dev->driver_version, driver, sizeof driver);
    version_string(dev->runtime_version, runtime, sizeof runtime);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    if (fprintf(f, "# device: %s, compute capability %d.%d, driver %s, CUDA runtime %s, %s\n", dev->name,
                dev->major, dev->minor, driver, runtime, date) < 0 ||
        fprintf(f, "%s\n", header) < 0)
        output_failed(f);
    return f;
}

void csv_row(FILE *f, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int written = vfprintf(f, fmt, args);
    va_end(args);
    if (written < 0 || fputc('\n', f) == EOF)
        output_failed(f);
}

void csv_close(FILE *f)
{
    output_close(f);
}
