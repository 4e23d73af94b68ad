/* touch.cu: the runner's own kernel, which does nothing. Before a timed call the judge has the runner
 * launch it (protocol.h, TOUCH), so that the GPU is working for the runner's process when the judge's
 * clock starts: without MPS, a GPU switches between processes' contexts, and the switch would be timed
 * as the student's. */
#include <cuda_runtime_api.h>

__global__ void touch(void) {}

extern "C" cudaError_t lab_runner_touch(void)
{
    touch<<<1, 1>>>();
    cudaError_t err = cudaGetLastError();
    return err != cudaSuccess ? err : cudaDeviceSynchronize();
}
