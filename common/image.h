/* image.h: binary PGM (gray, P5) and PPM (colour, P6) files, 8 bits per sample, and a colour map.
 *   write_pgm("out/a.pgm", pixels, width, height);          exit 1 if the file cannot be written
 *   write_ppm("out/a.ppm", rgb, width, height);             rgb holds 3 bytes a pixel
 *   unsigned char *p = read_pnm(path, &w, &h, &channels, error, sizeof error);   NULL + error text
 *   colormap(value, lo, hi, rgb);                           viridis: dark blue -> green -> yellow */
#ifndef COMMON_IMAGE_H
#define COMMON_IMAGE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

void write_pgm(const char *path, const unsigned char *pixels, int width, int height);
void write_ppm(const char *path, const unsigned char *rgb, int width, int height);
unsigned char *read_pnm(const char *path, int *width, int *height, int *channels, char *error,
                        size_t error_size);
void colormap(float value, float lo, float hi, unsigned char rgb[3]);

#define PNM_MAX_SIDE 65536
#define PNM_MAX_BYTES (1ull << 31)

#ifdef __cplusplus
}
#endif
#endif
