/* Lab ch1_map: a map over an array with a grid-stride loop (chapter 1, Examples 1.3 and 1.4).
 *
 * Write the kernel saxpy: y[i] = a * x[i] + y[i] for every i < n, in place. The launch below is fixed:
 * 32 blocks of 256 threads per SM, far fewer threads than elements when n is large, so each thread must
 * step through the array by the number of threads in the grid (a grid-stride loop), and stop at n.
 *
 * Rules: one kernel, no library. n can be 1, a prime, or past 2^31 (use long long for the index).
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * kernel reads 8 bytes and writes 4 per element).
 *   make lab L=ch1_map
 */

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    /* your code here */
}

/* The harness calls this with arrays on the GPU. */
void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
