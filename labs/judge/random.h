/* random.h: the judges' random numbers. Element i of stream s under a seed is a function of the three
 * alone (splitmix64's finaliser, from Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014), so that the CPU and the GPU make the same inputs in any order, and the seed the
 * report prints (SEED=) remakes every one of them.
 *   float x = lab_uniform(seed, 1, i);              in [0, 1), 24 random bits
 *   float v = lab_value(seed, 1, i, low, high);     in [low, high), the same bits
 *   unsigned u = lab_below(seed, 3, i, bound);      in [0, bound), bound > 0
 *   unsigned long long r = lab_bits(seed, 2, i);    64 random bits
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

static inline LAB_HOST_DEVICE float lab_value(unsigned long long seed, unsigned stream, unsigned long long i,
                                              float low, float high)
{
    return fmaf(high - low, lab_uniform(seed, stream, i), low);  /* one rounding, the same on CPU and GPU */
}

static inline LAB_HOST_DEVICE unsigned lab_below(unsigned long long seed, unsigned stream, unsigned long long i,
                                                 unsigned bound)
{
    return (unsigned)(lab_bits(seed, stream, i) % bound);
}

#endif
