/* unit_text.c: common/text.c, for tests/unit_common (unit.h): english_like_text, the text chapter 4's
 * programs count (deterministic for a seed, chapter 4's seed's text as committed, English letter
 * frequencies, punctuation, 7-bit ASCII, nothing written past its end), and read_file. */
#define _POSIX_C_SOURCE 200809L
#include "../common/text.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

void test_text(void)
{
    enum { N = 1000000 };
    static unsigned char a[N], b[N];
    english_like_text(a, N, 42);
    english_like_text(b, N, 42);
    ok(!memcmp(a, b, N), "english_like_text is deterministic for a seed");
    english_like_text(b, N, 2022);  /* the seed of chapter 4's text: the committed counts are of it */
    unsigned long long hash = 14695981039346656037ull;  /* (FNV-1a) */
    for (int i = 0; i < N; i++)
        hash = (hash ^ b[i]) * 1099511628211ull;
    ok(hash == 0x14b508debee6fae1ull, "english_like_text: the text of chapter 4's seed, 2022, is as it was");
    english_like_text(b, N, 43);
    ok(memcmp(a, b, N) != 0, "another seed gives another text");
    long counts[256] = {0}, letters = 0;
    for (int i = 0; i < N; i++)
        counts[a[i]]++;
    for (int c = 'a'; c <= 'z'; c++)
        letters += counts[c] + counts[c - 'a' + 'A'];
    double e = (double)(counts['e'] + counts['E']) / letters, z = (double)(counts['z'] + counts['Z']) / letters;
    ok(e > 0.11 && e < 0.14 && z < 0.002, "letter frequencies are English-like (e about 12.7%, z rare)");
    ok(counts[' '] > N / 8 && counts['.'] > 0 && counts[','] > 0 && counts['\n'] > 0 && counts['T'] > 0,
       "spaces, punctuation, line breaks and capitals occur");
    int only_ascii = 1;
    for (int c = 128; c < 256; c++)
        only_ascii &= counts[c] == 0;
    ok(only_ascii, "the text is 7-bit ASCII");
    unsigned char one[1] = {0};
    english_like_text(one, 1, 7);
    ok(one[0] >= 'A' && one[0] <= 'Z', "a 1-byte text is one capital letter");
    /* Its ends: texts of 1 to 300 bytes, 40 seeds each, a guard byte after each. A text whose last byte
     * ends a word (then a comma, a full stop or a blank would come), or cuts one, writes nothing past it. */
    int guarded = 1, capitals = 1;
    for (int k = 0; k < 300 * 40; k++) {
        int n = k / 40 + 1;
        a[n] = 0x7f;
        english_like_text(a, n, (unsigned long long)(k % 40 + 1));
        guarded &= a[n] == 0x7f;
        capitals &= a[0] >= 'A' && a[0] <= 'Z';
    }
    ok(guarded, "english_like_text of 1 to 300 bytes (40 seeds each) writes nothing past the text's end");
    ok(capitals, "... and each opens with a capital");
    write_file("three.txt", "abc", 3);
    long long n = 0;
    char error[256];
    unsigned char *t = read_file(scratch_path("three.txt"), &n, error, sizeof error);
    ok(t && n == 3 && !memcmp(t, "abc", 3), "read_file reads a file's bytes");
    free(t);
    ok(!read_file(scratch_path("none.txt"), &n, error, sizeof error) && strstr(error, "cannot read"),
       "read_file: a missing file gives NULL and why");
    ok(!read_file(scratch, &n, error, sizeof error) && strstr(error, "not a regular file"),
       "read_file: a folder gives NULL and why");
}
