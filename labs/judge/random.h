/* random.h: the judges' random numbers. Element i of stream s under a seed is a function of the three
 * alone (splitmix64's finaliser, from Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014), so that the CPU and the GPU make the same inputs in any order, and the seed the
 * report prints (SEED=) remakes every one of them.
 *   float x = lab_uniform(seed, 1, i);              in [0, 1), 24 random bits
 *   float v = lab_value(seed, 1, i, low, high);     in [low, high), the same bits
 *   unsigned u = lab_below(seed, 3, i, bound);      in [0, bound), bound > 0
 *   unsigned long long r = lab_bits(seed, 2, i);    64 random bits
 *   float f = lab_any_float(seed, 4, i);            any finite float, from all 32 bits
 * A judge draws every call's inputs from a seed of their own, lab_fresh(&lab) (lab.h), and fills device
 * buffers from it on the GPU (fill.cu) with the same functions its CPU reference uses. */
#ifndef LABS_RANDOM_H
#define LABS_RANDOM_H
#include <math.h>

#ifdef __CUDACC__
#define LAB_HOST_DEVICE __host__ __device__
#else
#define LAB_HOST_DEVICE
#endif

static inline LAB_HOST_DEVICE unsigned long long lab_mix(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline LAB_HOST_DEVICE unsigned long long lab_bits(unsigned long long seed, unsigned stream,
                                                         unsigned long long i)
{
    return lab_mix(lab_mix(seed ^ lab_mix(stream)) + i);
}

static inline LAB_HOST_DEVICE float lab_uniform(unsigned long long seed, unsigned stream, unsigned long long i)
{
    return (float)(lab_bits(seed, stream, i) >> 40) * (1.0f / 16777216.0f);
}

/* u in [0, 1) taken to [low, high): one rounding, the same on CPU and GPU. That rounding can reach high
 * itself (for [1, 2), u = 1 - 2^-24 gives 2 - 2^-24, which rounds to 2): such a draw is the largest float
 * below high instead, so that the contracts' half-open ranges hold (tests/random.t). */
static inline LAB_HOST_DEVICE float lab_between(float u, float low, float high)
{
    float v = fmaf(high - low, u, low);
    return v < high ? v : nextafterf(high, low);
}

static inline LAB_HOST_DEVICE float lab_value(unsigned long long seed, unsigned stream, unsigned long long i,
                                              float low, float high)
{
    return lab_between(lab_uniform(seed, stream, i), low, high);
}

static inline LAB_HOST_DEVICE unsigned lab_below(unsigned long long seed, unsigned stream, unsigned long long i,
                                                 unsigned bound)
{
    return (unsigned)(lab_bits(seed, stream, i) % bound);
}

/* Any finite float: 32 bits read as a float, where an exponent of all ones (an infinity or a NaN, which no
 * comparison would pass and which the poison is) loses its top bit; subnormals and both zeros included. For
 * a lab that copies floats, where every bit must survive. */
static inline LAB_HOST_DEVICE float lab_float_of(unsigned bits)
{
    union { unsigned bits; float f; } v;
    v.bits = bits;
    if ((v.bits & 0x7f800000u) == 0x7f800000u)
        v.bits &= ~0x40000000u;
    return v.f;
}

static inline LAB_HOST_DEVICE float lab_any_float(unsigned long long seed, unsigned stream, unsigned long long i)
{
    return lab_float_of((unsigned)lab_bits(seed, stream, i));
}

/* Byte i of an English-like text (letters at their frequencies in
 * English, one in 32 a capital, spaces, commas, full stops and line ends: words of about five letters,
 * and bins that many threads hit at once), and one byte in 64 of any of the 256 values, so that every bin
 * counts (a file that reads the bytes as signed char, or counts 128 values, fails): ch4_histogram's and
 * ch4_debug_atomic's inputs. */
static inline LAB_HOST_DEVICE unsigned char lab_text_byte_of(unsigned long long r)
{
    /* where each letter's share of 1024 ends, in the order of "etaoinshrdlcumwfgypbvkjxqz" (the last takes
     * the rest): common/text.c's table of the letters' frequencies */
    const unsigned short ends[25] = {130, 223, 306, 383, 455, 524, 589, 651, 712, 756, 797, 825, 854,
                                     878, 903, 925, 946, 966, 986, 1001, 1011, 1019, 1021, 1022, 1023};
    unsigned kind = (unsigned)(r & 1023), pick = (unsigned)(r >> 10) & 1023;
    if (kind < 16)
        return (unsigned char)(r >> 20);  /* any of the 256 values */
    if (kind < 186)
        return ' ';
    if (kind < 198)
        return ',';
    if (kind < 208)
        return '.';
    if (kind < 212)
        return '\n';
    int k = 0;
    for (int j = 0; j < 25; j++)  /* unrolled, the shares in registers: the letters whose share ends by pick */
        k += pick >= ends[j];
    char letter = "etaoinshrdlcumwfgypbvkjxqz"[k];
    return (unsigned char)(((r >> 30) & 31) == 0 ? letter - 'a' + 'A' : letter);  /* one in 32 a capital */
}

static inline LAB_HOST_DEVICE unsigned char lab_text_byte(unsigned long long seed, unsigned stream,
                                                     unsigned long long i)
{
    return lab_text_byte_of(lab_bits(seed, stream, i));
}

#endif
