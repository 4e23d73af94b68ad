/* An honest file: ch4_dot written another way, with its kernel declared extern "C" (a student who calls
 * it from C, or looks it up by name, does that; the old rules refused any name of C linkage). Each
 * thread reads x and y two floats at a time (float2, then the odd last element), the block adds its
 * threads' sums with warp shuffles, then the warps' sums in shared memory, and thread 0 adds the block's
 * sum to *result with one atomicAdd. The statement forbids CUB, a second kernel and a mutex, none of
 * which it uses. It must PASS: within the tolerance, racecheck-clean, as fast as the course's solution. */

#define THREADS 256

__device__ float warp_total(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;  /* in lane 0 */
}

extern "C" __global__ void dot(const float *x, const float *y, long long n, float *result)
{
    __shared__ float warp_sums[THREADS / 32];
    long long stride = (long long)blockDim.x * gridDim.x;
    long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const float2 *x2 = (const float2 *)x, *y2 = (const float2 *)y;  /* cudaMalloc: aligned for float2 */
    float sum = 0.0f;
    for (long long p = first; p < n / 2; p += stride) {
        float2 a = x2[p], b = y2[p];
        sum += a.x * b.x + a.y * b.y;
    }
    if (first == 0 && n % 2)
        sum += x[n - 1] * y[n - 1];
    sum = warp_total(sum);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();  /* every warp's sum is in */
    if (warp == 0) {
        sum = warp_total(lane < THREADS / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            atomicAdd(result, sum);  /* blocks finish in any order */
    }
}

/* The runner calls this with arrays on the GPU. */
void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    cudaMemsetAsync(result, 0, sizeof(float));
    dot<<<32 * sms, THREADS>>>(x, y, n, result);
}
