/* A cheat: right at every size the check uses once, then nothing when the same large size comes back
 * again and again (the timed runs). The judge poisons y's copy before each timed run and reads a fresh
 * sample of it after: a run that did nothing shows. */
__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    static int large_calls;
    if (n > 50000000 && ++large_calls > 2)
        return;
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
