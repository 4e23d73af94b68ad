/* text.c: see text.h. */
#define _POSIX_C_SOURCE 200809L
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* xorshift64*: small, fast, and the same everywhere. */
static unsigned long long next(unsigned long long *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

void english_like_text(unsigned char *text, long long n, unsigned long long seed)
{
    /* Relative frequencies of the letters in English text, in percent (a common published table). */
    static const char letters[] = "etaoinshrdlcumwfgypbvkjxqz";
    static const double percent[26] = {12.70, 9.06, 8.17, 7.51, 6.97, 6.75, 6.33, 6.09, 5.99, 4.25, 4.03, 2.78, 2.76,
                                       2.41,  2.36, 2.23, 2.02, 1.97, 1.93, 1.49, 0.98, 0.77, 0.15, 0.15, 0.10, 0.07};
    /* A 1024-entry table turns a 10-bit random number into a letter with those frequencies. */
    char table[1024];
    double total = 0.0, cumulative = 0.0;
    for (int i = 0; i < 26; i++)
        total += percent[i];
    for (int i = 0, slot = 0; i < 26; i++) {
        cumulative += percent[i];
        for (int end = (int)(cumulative / total * 1024 + 0.5); slot < end && slot < 1024; slot++)
            table[slot] = letters[i];
    }
    table[1023] = letters[25];

    unsigned long long state = seed ? seed : 1;
    long long i = 0, line = 0;
    int capital = 1;
    while (i < n) {
        unsigned long long r = next(&state);
        int length = 1 + (int)(r % 9) + (int)((r >> 8) % 3 == 0);  /* 1 to 10 letters, about 4.7 on average */
        for (int k = 0; k < length && i < n; k++, line++) {
            char c = table[(r >> (16 + 4 * (k % 10))) & 1023];
            if (k >= 4)  /* the bits of r run out after a few letters: draw more */
                c = table[next(&state) & 1023];
            text[i++] = (unsigned char)(capital && k == 0 ? toupper(c) : c);
        }
        capital = 0;
        unsigned p = (unsigned)(next(&state) % 100);
        if (i < n && p < 6) {
            text[i++] = '.';
            capital = 1;
        } else if (i < n && p < 13) {
            text[i++] = ',';
        }
        if (i < n) {
            text[i++] = line > 70 ? '\n' : ' ';
            line = line > 70 ? 0 : line + 1;
        }
    }
}

unsigned char *read_file(const char *path, long long *n, char *error, size_t error_size)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "cannot read '%s': %s", path, f ? "not a regular file" : strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    *n = st.st_size;
    unsigned char *text = malloc(*n > 0 ? *n : 1);
    if (!text || (long long)fread(text, 1, *n, f) != *n) {
        snprintf(error, error_size, "could not read all %lld bytes of '%s'", *n, path);
        free(text);
        fclose(f);
        return NULL;
    }
    fclose(f);
    return text;
}
