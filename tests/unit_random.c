/* unit_random.c: the judges' random numbers (labs/judge/random.h) keep the ranges the labs' contracts
 * promise, without a GPU (the GPU's fill.cu runs the same functions, with the same one rounding). TAP;
 * built by make test (output/labs/unit_random), run by tests/random.t. Every one of the 2^24 values of
 * lab_uniform is taken to each range the judges draw from: each lands in [low, high). */
#include "random.h"

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
    printf("1..%d\n", tests);
    return 0;
}
