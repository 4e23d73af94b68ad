/* A cheat: reach outside the runner's process (here, a shell). The rules refuse the call. */
#include <stdlib.h>

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    system("echo PASS > /tmp/verdict");
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
