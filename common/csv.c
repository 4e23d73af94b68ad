/* csv.c: see csv.h. */
#define _POSIX_C_SOURCE 200809L
#include "csv.h"
#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

FILE *csv_open(const char *path, const struct device_info *dev, const char *header)
{
    make_parent_dir(path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char driver[16], runtime[16], date[32];
    version_string(dev->driver_version, driver, sizeof driver);
    version_string(dev->runtime_version, runtime, sizeof runtime);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(f, "# device: %s, compute capability %d.%d, driver %s, CUDA runtime %s, %s\n", dev->name,
            dev->major, dev->minor, driver, runtime, date);
    fprintf(f, "%s\n", header);
    return f;
}

void csv_row(FILE *f, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfprintf(f, fmt, args);
    va_end(args);
    fputc('\n', f);
}

void csv_close(FILE *f)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "writing a CSV file failed: %s\n", strerror(errno));
        exit(1);
    }
}
