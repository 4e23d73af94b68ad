/* text.h: a deterministic English-like text, for histograms of letters.
 *   english_like_text(buffer, n, seed);    n bytes: words drawn with English letter frequencies,
 *                                          spaces, commas, full stops, capitals, line breaks.
 * The same seed gives the same text on every machine. */
#ifndef COMMON_TEXT_H
#define COMMON_TEXT_H
#ifdef __cplusplus
extern "C" {
#endif

void english_like_text(unsigned char *text, long long n, unsigned long long seed);

#ifdef __cplusplus
}
#endif
#endif
