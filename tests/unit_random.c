/* unit_random.c: the judges' random numbers (labs/judge/random.h) keep the ranges the labs' contracts
 * promise, without a GPU (the GPU's fill.cu runs the same functions, with the same one rounding). TAP;
 * built by make test (output/labs/unit_random), run by tests/random.t. Every one of the 2^24 values of
 * lab_uniform is taken to each range the judges draw from: each lands in [low, high); lab_any_float's
 * patterns are finite floats; lab_text_byte's shares are exactly those it promises. */
#include "random.h"

#include <math.h>
#include <stdio.h>

static int tests;

static void ok(int holds, const char *what)
{
    printf("%sok %d - %s\n", holds ? "" : "not ", ++tests, what);
}

int main(void)
{
    /* The ranges of the judges' LOW and HIGH (the labs/judge files), and a product's [s/2, 3s/2) at a few s. */
    static const float range[][2] = {{0.0f, 1.0f},   {1.0f, 2.0f},  {0.5f, 1.5f},  {0.25f, 0.75f},
                                     {-4.0f, 4.0f},  {-1.0f, 1.0f}, {0.5f, 1.0f},  {3.0f, 9.0f},
                                     {0.75f, 2.25f}, {1e-3f, 3e-3f}};
    char what[160];
    for (unsigned r = 0; r < sizeof range / sizeof range[0]; r++) {
        float low = range[r][0], high = range[r][1];
        unsigned long long outside = 0, at_top = 0;
        float largest = low;
        for (unsigned k = 0; k < (1u << 24); k++) {  /* every u = k / 2^24 lab_uniform can give */
            float v = lab_between((float)k * (1.0f / 16777216.0f), low, high);
            outside += !(v >= low && v < high);
            largest = v > largest ? v : largest;
        }
        at_top = largest == nextafterf(high, low);
        snprintf(what, sizeof what, "[%g, %g): all 2^24 draws inside (%llu outside); the largest %.9g, %s", low,
                 high, outside, largest, at_top ? "the float just below high" : "below it");
        ok(outside == 0, what);
        snprintf(what, sizeof what, "[%g, %g): u = 0 gives low", low, high);
        ok(lab_between(0.0f, low, high) == low, what);
    }
    /* lab_value is lab_between of lab_uniform: a million draws of a seed, in [1, 2). */
    unsigned long long outside = 0;
    for (unsigned long long i = 0; i < 1000000; i++) {
        float v = lab_value(0x5eedull, 1, i, 1.0f, 2.0f);
        outside += !(v >= 1.0f && v < 2.0f) || v != lab_between(lab_uniform(0x5eedull, 1, i), 1.0f, 2.0f);
    }
    ok(outside == 0, "lab_value: a million draws in [1, 2), each lab_between of lab_uniform");

    /* lab_float_of (lab_any_float's): a 32-bit pattern made a finite float, the same bits where they are one
     * already (one pattern in 4099 of all 2^32, a third of them given an all-ones exponent). */
    unsigned long long special = 0, changed = 0;
    for (unsigned long long b = 0; b < (1ull << 32); b += 4099) {
        unsigned bits = (unsigned)b | 0x7f800000u * ((b / 4099) % 3 == 0);  /* a third with all-ones exponents */
        float f = lab_float_of(bits);
        union { float f; unsigned bits; } back = {f};
        special += isnan(f) || isinf(f);
        changed += (bits & 0x7f800000u) != 0x7f800000u && back.bits != bits;
    }
    snprintf(what, sizeof what, "lab_float_of: no NaN nor infinity (%llu), finite floats kept bit for bit "
             "(%llu changed)", special, changed);
    ok(special == 0 && changed == 0, what);

    /* lab_text_byte_of: every value of its 20 low bits (kind, pick), with a capital (count[0]: bits 30 to 34
     * all 0) and without (count[1]): the shares
     * it promises, exactly, out of 2^20 (16 any-byte, 170 spaces, 12 commas, 10 full stops, 4 line ends, the
     * rest letters by ends[] out of 1024). */
    static unsigned long long count[2][256];
    for (unsigned cap = 0; cap < 2; cap++)
        for (unsigned long long r = 0; r < (1ull << 20); r++)
            count[cap][lab_text_byte_of(r | (unsigned long long)cap << 30 | 0xabull << 20)]++;
    unsigned long long letters = 1024 - 212, any = 16 * 1024;  /* kinds 212..1023; kinds 0..15 give r >> 20 */
    ok(count[1][' '] == 170 * 1024 && count[1][','] == 12 * 1024 && count[1]['.'] == 10 * 1024 &&
           count[1]['\n'] == 4 * 1024,
       "lab_text_byte_of: spaces, commas, full stops, line ends at 170, 12, 10 and 4 of 1024");
    ok(count[1][0xab] == any, "lab_text_byte_of: 16 of 1024 any byte (bits 20 to 27)");
    ok(count[1]['e'] == 130 * letters && count[1]['t'] == 93 * letters && count[1]['z'] == 1 * letters &&
           count[1]['q'] == 1 * letters && count[1]['E'] == 0,
       "lab_text_byte_of: e, t, q and z at their shares of 1024 (130, 93, 1, 1) among the letters, no capital");
    ok(count[0]['E'] == 130 * letters && count[0]['e'] == 0 && count[0]['Z'] == letters,
       "lab_text_byte_of: with bits 30 to 34 all 0, the capital");
    printf("1..%d\n", tests);
    return 0;
}
