/* A forgery (the `call` lines read names without their symbol versions): the answer computed on the CPU,
 * the copies made by the CUDA driver's cuMemcpyDtoH and cuMemcpyHtoD, which the file finds with dlopen
 * and dlsym called by their versioned names. `.symver` makes the object's undefined symbols
 * "dlopen@GLIBC_2.34" and "dlsym@GLIBC_2.34": nm -u prints them so, the rule's anchored ^(dl(open|sym|...))$
 * never matches, and the linker binds them to glibc's dlopen and dlsym all the same. The driver shares
 * the runtime's primary context, current on the runner's thread.
 * Why it must fail: "no copies between the host and the GPU" and "no code loaded by name" (rules.txt);
 * a call's name must be read without its @VERSION. */
#include <dlfcn.h>
#include <stdlib.h>

extern "C" void *open_by_version(const char *, int);
extern "C" void *find_by_version(void *, const char *);
__asm__(".symver open_by_version, dlopen@GLIBC_2.34");
__asm__(".symver find_by_version, dlsym@GLIBC_2.34");

typedef int (*to_host_t)(void *, unsigned long long, size_t);
typedef int (*to_device_t)(unsigned long long, const void *, size_t);

__global__ void saxpy(float a, const float *x, float *y, long long n) {}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    static to_host_t to_host;
    static to_device_t to_device;
    if (!to_host) {
        void *driver = open_by_version("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        to_host = (to_host_t)find_by_version(driver, "cuMemcpyDtoH_v2");
        to_device = (to_device_t)find_by_version(driver, "cuMemcpyHtoD_v2");
    }
    cudaFree(0);  /* the runtime's context current on this thread */
    float *hx = (float *)calloc(n, sizeof(float)), *hy = (float *)calloc(n, sizeof(float));
    to_host(hx, (unsigned long long)x, n * sizeof(float));
    to_host(hy, (unsigned long long)y, n * sizeof(float));
    for (long long i = 0; i < n; i++)
        hy[i] = a * hx[i] + hy[i];
    to_device((unsigned long long)y, hy, n * sizeof(float));
    free(hx), free(hy);
}
