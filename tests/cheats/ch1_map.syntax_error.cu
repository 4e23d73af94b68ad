/* Not a cheat: a file that does not compile must be a build failure that names it. */
__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    y[0] = a * x[0] + y[0]
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<1, 1>>>(a, x, y, n);
}
