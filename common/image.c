/* image.c: see image.h. Format: netpbm's "P5"/"P6", whitespace-separated width, height and maxval,
 * '#' comments to the end of a line anywhere in the header, one whitespace byte, then the samples. */
#define _POSIX_C_SOURCE 200809L
#include "image.h"
#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_pnm(const char *path, const char *magic, const unsigned char *data, int width,
                      int height, int channels)
{
    FILE *f = output_open(path);
    size_t count = (size_t)width * height * channels;
    if (fprintf(f, "%s\n%d %d\n255\n", magic, width, height) < 0 || fwrite(data, 1, count, f) != count)
        output_failed(f);
    output_close(f);
}

void write_pgm(const char *path, const unsigned char *pixels, int width, int height)
{
    write_pnm(path, "P5", pixels, width, height, 1);
}

void write_ppm(const char *path, const unsigned char *rgb, int width, int height)
{
    write_pnm(path, "P6", rgb, width, height, 3);
}

/* Reads one header number, skipping whitespace and comments. Returns -1 on junk or overflow. */
static long read_header_number(FILE *f, int is_maxval)
{
    int c = fgetc(f);
    for (;;) {
        if (c == '#') {
            while (c != '\n' && c != EOF)
                c = fgetc(f);
        } else if (c != EOF && isspace(c)) {
            c = fgetc(f);
        } else {
            break;
        }
    }
    if (c == EOF || !isdigit(c))
        return -1;
    long value = 0;
    while (c != EOF && isdigit(c)) {
        value = value * 10 + (c - '0');
        if (value > 10 * (long)PNM_MAX_SIDE)
            return -1;
        c = fgetc(f);
    }
    /* The number must end at whitespace or a comment; that byte is consumed (after maxval it is the
     * single separator before the binary samples). */
    if (c == '#') {
        while (c != '\n' && c != EOF)
            c = fgetc(f);
        /* The format says a comment's newline does not delimit the raster: one more whitespace must. */
        if (is_maxval)
            c = fgetc(f);
    }
    if (c == EOF || !isspace(c))
        return -1;
    return value;
}

static unsigned char *reject(FILE *f, char *error, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(error, size, fmt, args);
    va_end(args);
    if (f)
        fclose(f);
    return NULL;
}

unsigned char *read_pnm(const char *path, int *width, int *height, int *channels, char *error,
                        size_t error_size)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return reject(NULL, error, error_size, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return reject(NULL, error, error_size, "%s: %s", path,
                      S_ISDIR(st.st_mode) ? "is a folder" : "not a regular file");
    }
    char magic[2];
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6'))
        return reject(f, error, error_size, "%s: not a binary PGM (P5) or PPM (P6) file", path);
    long w = read_header_number(f, 0), h = read_header_number(f, 0), maxval = read_header_number(f, 1);
    if (w < 0 || h < 0 || maxval < 0)
        return reject(f, error, error_size, "%s: malformed header", path);
    if (w < 1 || h < 1 || w > PNM_MAX_SIDE || h > PNM_MAX_SIDE)
        return reject(f, error, error_size, "%s: size %ld x %ld outside 1..%d", path, w, h, PNM_MAX_SIDE);
    if (maxval < 1 || maxval > 255)
        return reject(f, error, error_size, "%s: maxval %ld outside 1..255 (16-bit files unsupported)",
                      path, maxval);
    int c = magic[1] == '6' ? 3 : 1;
    unsigned long long bytes = (unsigned long long)w * h * c;
    if (bytes > PNM_MAX_BYTES)
        return reject(f, error, error_size, "%s: %llu bytes of pixels is too large", path, bytes);
    /* The header's size against the file's, before allocating what the header claims. */
    long header = ftell(f);
    unsigned long long in_file = header >= 0 && st.st_size > header ? (unsigned long long)(st.st_size - header) : 0;
    if (in_file < bytes)
        return reject(f, error, error_size, "%s: truncated: %llu of %llu pixel bytes", path, in_file, bytes);
    if (in_file > bytes)
        return reject(f, error, error_size, "%s: %llu bytes after the image (one image per file)", path,
                      in_file - bytes);
    unsigned char *data = malloc(bytes);
    if (!data)
        return reject(f, error, error_size, "%s: out of host memory for %llu bytes", path, bytes);
    size_t got = fread(data, 1, bytes, f);
    fclose(f);
    if (got != bytes) {  /* the file shrank while we read it */
        free(data);
        return reject(NULL, error, error_size, "%s: truncated: %zu of %llu pixel bytes", path, got, bytes);
    }
    for (unsigned long long i = 0; maxval != 255 && i < bytes; i++) {
        if (data[i] > maxval) {
            int sample = data[i];
            free(data);
            return reject(NULL, error, error_size, "%s: sample %d at pixel byte %llu is above maxval %ld", path,
                          sample, i, maxval);
        }
        data[i] = (unsigned char)((data[i] * 255 + maxval / 2) / maxval);  /* rescale: callers see 0..255 */
    }
    *width = (int)w;
    *height = (int)h;
    *channels = c;
    return data;
}

void colormap(float value, float lo, float hi, unsigned char rgb[3])
{
    /* Nine samples of matplotlib's viridis: lightness rises steadily, so it also reads in grey. */
    static const unsigned char viridis[9][3] = {
        {68, 1, 84},    {71, 45, 123},  {59, 82, 139},  {44, 114, 142}, {33, 144, 140},
        {39, 173, 129}, {93, 200, 99},  {170, 220, 50}, {253, 231, 37}};
    float t = hi > lo ? (value - lo) / (hi - lo) : 0.0f;
    if (!(t >= 0.0f))  /* also catches NaN */
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    float x = t * 8.0f;
    int i = x >= 8.0f ? 7 : (int)x;
    float f = x - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = (unsigned char)(viridis[i][k] + f * (viridis[i + 1][k] - viridis[i][k]) + 0.5f);
}

/* The course's test picture, pixel (x, y) of width x height, in 0..1: most of it below 0.15, with detail
 * hidden in the shadows (soft waves, rings and a checkerboard a few percent apart), one bright sun, and a
 * grey ramp 0..1 along the bottom that shows a whole transfer curve (chapter 1's log, chapter 4's
 * equalisation). */
static float test_pixel(int x, int y, int width, int height)
{
    float u = (float)x / width, v = (float)y / height;
    float value = 0.06f + 0.03f * sinf(18.0f * u) * sinf(14.0f * v);
    float r = hypotf(u - 0.35f, v - 0.45f);
    if (r < 0.25f)
        value += 0.03f * (cosf(60.0f * r) > 0.0f);
    if (u > 0.62f && u < 0.92f && v > 0.55f && v < 0.85f)
        value += 0.025f * (((int)(u * 40) + (int)(v * 40)) % 2);
    if (hypotf(u - 0.78f, v - 0.2f) < 0.08f)
        value = 0.95f;
    if (v > 0.92f)
        value = u;
    return value;
}

void test_picture(float *image, int width, int height)
{
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            image[(size_t)y * width + x] = test_pixel(x, y, width, height);
}

void test_picture_bytes(unsigned char *image, int width, int height)
{
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            image[(size_t)y * width + x] = (unsigned char)(test_pixel(x, y, width, height) * 255.0f + 0.5f);
}
