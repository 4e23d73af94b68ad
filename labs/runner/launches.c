/* launches.c: the runner's count of the kernels a call launches (a lab's "one kernel" rule), and of the
 * times it reads from CUDA events (ch3_events: the time is measured with events). The runner is
 * linked with --wrap for each launch function (make lab-wrap lists them), so that the student's object,
 * and nvcc's launch code in it, call these, which count and pass the call on. (Inside the student's own
 * process the count can be reached by a file that sets out to: it catches the honest two-kernel
 * solution of a one-kernel lab; a forgery that edits the runner's memory is a forgery, and the grade's
 * other checks, fresh inputs and the sandbox, are what hold it.) The __real_ functions are weak: a
 * toolkit without one of them (CUDA 12's has no __cudaLaunchKernel) links all the same. */
#include <cuda_runtime_api.h>

#include "runner.h"

unsigned lab_launches, lab_elapsed;  /* since the runner's last call began (runner.c resets them) */

#define WRAP_COUNTING(count, name, params, args)                                                        \
    extern cudaError_t __real_##name params __attribute__((weak));                                      \
    cudaError_t __wrap_##name params;                                                                   \
    cudaError_t __wrap_##name params                                                                    \
    {                                                                                                   \
        count++;                                                                                        \
        return __real_##name ? __real_##name args : cudaErrorNotSupported;                              \
    }
#define WRAP(name, params, args) WRAP_COUNTING(lab_launches, name, params, args)

#if CUDART_VERSION >= 12000
WRAP(__cudaLaunchKernel, (cudaKernel_t k, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st), (k, g, b, a, s, st))
WRAP(__cudaLaunchKernel_ptsz, (cudaKernel_t k, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st),
     (k, g, b, a, s, st))
#endif
WRAP(cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st), (f, g, b, a, s, st))
WRAP(cudaLaunchKernel_ptsz, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st),
     (f, g, b, a, s, st))
WRAP(cudaLaunchCooperativeKernel, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st),
     (f, g, b, a, s, st))
WRAP(cudaLaunchCooperativeKernel_ptsz, (const void *f, dim3 g, dim3 b, void **a, size_t s, cudaStream_t st),
     (f, g, b, a, s, st))
WRAP(cudaLaunchKernelExC, (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
WRAP(cudaLaunchKernelExC_ptsz, (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
WRAP_COUNTING(lab_elapsed, cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b))
WRAP_COUNTING(lab_elapsed, cudaEventElapsedTime_v2, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b))
