/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch1_map's Rules line says
 * one kernel, and the launch is fixed: this file splits the array in two halves, each its own saxpy
 * launch. Right and nearly as fast, it broke a rule no judge checked (found by an independent read of
 * the statements, 2026-11-27).
 * Why it must fail: the judge counts the kernels each call launches (one, here two). */

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    long long half = n / 2;
    saxpy<<<16 * sms, 256>>>(a, x, y, half);
    saxpy<<<16 * sms, 256>>>(a, x + half, y + half, n - half);
}
