/* A cheat, or a mistake: a kernel that never ends. The judge stops it after LAB_TIMEOUT seconds. */
__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    while (clock64() >= 0) {
    }
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
