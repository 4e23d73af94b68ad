/* A cheat: reach outside the runner's process (here, a shell that writes a verdict of its own) and compute
 * nothing. The shell runs, in the runner's sandbox, where /tmp is its own: the verdict is the judge's. */
#include <stdlib.h>

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    system("echo PASS > /tmp/verdict");
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
