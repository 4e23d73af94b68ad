/* A cheat, or a mistake: a kernel that never ends. The judge stops it after LAB_TIMEOUT seconds. (It spins
 * on a volatile read, which the compiler must keep: a kernel's own clock, which it spun on before, is
 * refused by every lab's rules now.) */
__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    volatile float *v = y;
    while (v[0] == v[0] || v[0] != v[0]) {  /* true for every value, a NaN too */
    }
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
