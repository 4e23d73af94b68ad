/* An honest file: ch1_map written another way. The grid-stride loop walks float4 vectors (16 bytes a
 * load, a quarter of the loads of one float at a time), and the n % 4 elements past the last whole
 * vector are done one by one, by the first threads of the grid. x and y come from cudaMalloc, so they
 * are aligned for float4; every index is a long long (n may be past 2^31, and so may 4 x the vector
 * index). It must PASS: right at every size, memcheck-clean, as fast as the course's solution. */

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    long long vectors = n / 4;
    const float4 *x4 = (const float4 *)x;
    float4 *y4 = (float4 *)y;
    for (long long v = first; v < vectors; v += stride) {
        float4 xv = x4[v], yv = y4[v];
        yv.x = a * xv.x + yv.x;
        yv.y = a * xv.y + yv.y;
        yv.z = a * xv.z + yv.z;
        yv.w = a * xv.w + yv.w;
        y4[v] = yv;
    }
    long long i = 4 * vectors + first;  /* the tail: 0 to 3 elements */
    if (i < n)
        y[i] = a * x[i] + y[i];
}

/* The harness calls this with arrays on the GPU. */
void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
