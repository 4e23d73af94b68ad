/* image.h: binary PGM (gray, P5) and PPM (colour, P6) files, 8 bits per sample, and a colour map.
 *   write_pgm("out/a.pgm", pixels, width, height);          whole or not at all (output.h); exit 1 if not
 *   write_ppm("out/a.ppm", rgb, width, height);             rgb holds 3 bytes a pixel
 *   unsigned char *p = read_pnm(path, &w, &h, &channels, error, sizeof error);   NULL + error text
 *   colormap(value, lo, hi, rgb);                           viridis: dark blue -> green -> yellow
 *   test_picture(image, width, height);                     the course's low-contrast test picture, 0..1
 *   test_picture_bytes(bytes, width, height);               the same as bytes 0..255
 * read_pnm takes what netpbm's readers take, stricter where they are lenient, and refuses the rest:
 * - a regular file (not a FIFO or a folder), binary P5 or P6, one image: a byte after the last sample
 *   is an error (netpbm would read it as the start of a second image);
 * - sides 1..PNM_MAX_SIDE, maxval 1..255 (one byte a sample), at most PNM_MAX_BYTES of samples, and
 *   exactly width x height x channels bytes of them: the size is compared with the file's before
 *   anything is allocated;
 * - every sample at most maxval (a larger one is an error, as in netpbm), rescaled to 0..255. */
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
void test_picture(float *image, int width, int height);
void test_picture_bytes(unsigned char *image, int width, int height);

#define PNM_MAX_SIDE 65536
#define PNM_MAX_BYTES (1ull << 31)

#ifdef __cplusplus
}
#endif
#endif
