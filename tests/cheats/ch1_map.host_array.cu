/* A cheat: a host array of its own, where the answer could be kept between runs (here a mapped copy
 * would let a kernel read it back): the rules refuse a host array of over 64 KiB. */
static float kept[1 << 20];

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    if (kept[n % (1 << 20)] == a)  /* (what it keeps does not matter: the rules refuse it before it runs) */
        return;
    kept[n % (1 << 20)] = a;
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
