/* A forgery, class 6 of issue 49 (the sanitizer saw the small sizes only, up to 2^17 elements). Above
 * 2^17 this saxpy loads the next element of its grid-stride loop one pass ahead (software prefetch), and
 * clamps the next index to n instead of n - 1: the last pass of every thread reads x[n] and y[n], one
 * float past the end of each array. The values are never used, and a read a few bytes past the end lands
 * inside the allocation's rounding: every element is right and nothing faults. At 2^17 elements and
 * below, where compute-sanitizer looked, the loop is the plain one. The old judge (on an H200): PASS,
 * 110% of the solution.
 * Why it must fail: memcheck now also runs at one of the large sizes, drawn for each grade, and reports
 * the two reads past the end. */

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (n <= (1 << 17)) {
        for (; i < n; i += stride)
            y[i] = a * x[i] + y[i];
        return;
    }
    if (i >= n)
        return;
    float x_next = x[i], y_next = y[i];
    for (; i < n; i += stride) {
        float x_here = x_next, y_here = y_next;
        long long next = i + stride < n ? i + stride : n;  /* (n - 1 would be in bounds) */
        x_next = x[next];
        y_next = y[next];
        y[i] = a * x_here + y_here;
    }
}

/* The harness calls this with arrays on the GPU. */
void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
