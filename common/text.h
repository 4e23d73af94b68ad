/* text.h: texts for histograms of letters: a deterministic English-like one, or a file's bytes.
 *   english_like_text(buffer, n, seed);    n bytes: words drawn with English letter frequencies,
 *                                          spaces, commas, full stops, capitals, line breaks.
 *   unsigned char *t = read_file(path, &n, error, sizeof error);   a file's bytes, or NULL + why
 * The same seed gives the same text on every machine. */
#ifndef COMMON_TEXT_H
#define COMMON_TEXT_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

void english_like_text(unsigned char *text, long long n, unsigned long long seed);
unsigned char *read_file(const char *path, long long *n, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
