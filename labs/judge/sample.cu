/* sample.cu: the judge's kernel that reads picked elements of device buffers (timed.c's samples of a
 * timed run's outputs), compiled once like libraries.cu. Each thread reads one element, of 1, 4 or 8
 * bytes, through a volatile pointer: the runner's process wrote it, and the judge wants what is in
 * memory now. */
#include <cuda_runtime_api.h>

#include "../../common/check.h"

struct lab_pick { const unsigned char *address; int size; };

__global__ void pick(const struct lab_pick *picks, int count, unsigned long long *out)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count)
        return;
    const volatile unsigned char *p = picks[k].address;
    unsigned long long v = 0;
    if (picks[k].size == 8)
        v = *(const volatile unsigned long long *)p;
    else if (picks[k].size == 4)
        v = *(const volatile unsigned *)p;
    else
        v = *p;
    out[k] = v;
}

extern "C" void lab_pick_on_gpu(const struct lab_pick *device_picks, int count, unsigned long long *device_out,
                                unsigned long long *host_out)
{
    pick<<<(count + 255) / 256, 256>>>(device_picks, count, device_out);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(host_out, device_out, count * sizeof *host_out, cudaMemcpyDeviceToHost));
}
