/* Class 6 (the inputs' structure read to skip the work). The contract says x and y are each uniform in
 * [s/2, 3s/2) for a scale of their own, independent, and the judge's tolerance counts 4296 roundings
 * (132 SMs: 32 x sms blocks' atomics) of 2^-24 each: 2.6e-4 relative. At n = 2^26 + 1 the true sum
 * deviates from its expectation n * sx * sy by 5e-5 (1 sigma: (5/12)/sqrt(n)), so an estimate of sx and
 * sy from 65536 strided elements (the midpoint of their min and max, error ~1e-5) passes by 5 sigma
 * while reading 1/1000 of the data. Honest below 2^25 elements (the small sizes need the exact sum).
 * A correct judge should say: FAIL (the result is not the dot product of x and y; e.g. inputs whose
 * products are not identically distributed, or a tolerance that does not exceed the sampling noise).
 * Written by an attacker who did not write the judge: on an H200 (132 SMs), 2026-11-27, PASS at 153-161%
 * of the solution. Why it must fail now: 1 to 8 elements of x, at places drawn for each call, are 2^20
 * times larger (the judge's spikes_of): an estimate that misses them is off by 16 tolerances or more. */
#define THREADS 256
#define PROBE 65536

__global__ void dot(const float *x, const float *y, long long n, float *result)
{
    __shared__ float part[THREADS], lo[2][THREADS], hi[2][THREADS];
    if (n >= (1LL << 25)) {  /* the estimate: block 0 only (256 strides of 256 threads) */
        if (blockIdx.x)
            return;
        long long step = n / PROBE;
        for (int w = 0; w < 2; w++) {
            const float *v = w ? y : x;
            float a = 3e38f, b = 0;
            for (int j = threadIdx.x; j < PROBE; j += THREADS) {
                float e = v[j * step];
                a = fminf(a, e), b = fmaxf(b, e);
            }
            lo[w][threadIdx.x] = a, hi[w][threadIdx.x] = b;
        }
        __syncthreads();
        for (int s = THREADS / 2; s > 0; s /= 2) {
            if (threadIdx.x < s)
                for (int w = 0; w < 2; w++) {
                    lo[w][threadIdx.x] = fminf(lo[w][threadIdx.x], lo[w][threadIdx.x + s]);
                    hi[w][threadIdx.x] = fmaxf(hi[w][threadIdx.x], hi[w][threadIdx.x + s]);
                }
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            double sx = 0.5 * ((double)lo[0][0] + hi[0][0]), sy = 0.5 * ((double)lo[1][0] + hi[1][0]);
            atomicAdd(result, (float)((double)n * sx * sy));
        }
        return;
    }
    float sum = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i] * y[i];
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(result, part[0]);
}

void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemsetAsync(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
}
