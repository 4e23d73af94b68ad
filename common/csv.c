/* csv.c: see csv.h. */
#define _POSIX_C_SOURCE 200809L
#include "csv.h"
#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

/* What every CSV's first line names: the first GPU that device_start started. */
static char measured_on[512];

void csv_measured_on(const char *device_line)
{
    if (!measured_on[0])
        snprintf(measured_on, sizeof measured_on, "%s", device_line);
}

FILE *csv_open(const char *path, const char *header)
{
    FILE *f = output_open(path);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    if (fprintf(f, "# device: %s, %s\n", measured_on[0] ? measured_on : "no GPU started", date) < 0 ||
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
