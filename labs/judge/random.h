/* random.h: the judges' random numbers. Element i of stream s under a seed is a function of the three
 * alone (splitmix64's finaliser, from Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014), so that the CPU and the GPU make the same inputs in any order, and the seed the
 * report prints (SEED=) remakes every one of them.
 *   float x = lab_uniform(lab.seed, 1, i);          in [0, 1), 24 random bits
 *   unsigned long long r = lab_bits(lab.seed, 2, i); 64 random bits */
#ifndef LABS_RANDOM_H
#define LABS_RANDOM_H
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

#endif
