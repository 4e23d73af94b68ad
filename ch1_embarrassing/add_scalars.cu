/* add_scalars.cu: Part 1, Example 1.1, "a kernel cannot return a value".
 * A kernel's return type is void: to get a result back, the kernel writes it into device memory that
 * the host allocated, and the host copies it back. Here one thread of one block adds two numbers.
 *   make ch1 && ./ch1_embarrassing/add_scalars
 */
#include <stdio.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"

/* One thread writes a + b into a one-element device array: the only way out of a kernel is memory. */
__global__ void add_scalars(float a, float b, float *c)
{
    c[0] = a + b;
}

int main(int argc, char **argv)
{
    double a = 2.0, b = 7.0;
    struct cli_option options[] = {
        {"-a", CLI_DOUBLE, &a, -1e30, 1e30, "first number (default 2.0)"},
        {"-b", CLI_DOUBLE, &b, -1e30, 1e30, "second number (default 7.0)"},
    };
    int device = cli_parse(argc, argv, "Part 1, Example 1.1: add two numbers in a kernel.", options, COUNT_OF(options));
    struct device_info dev;
    device_start(device, &dev);

    float *dev_c = NULL, c = 0.0f;
    CUDA_CHECK(cudaMalloc(&dev_c, sizeof(float)));
    add_scalars<<<1, 1>>>((float)a, (float)b, dev_c);  /* a grid of 1 block of 1 thread */
    CHECK_LAUNCH();
    /* cudaMemcpy waits for the kernel: it is queued behind it on the same (default) stream. */
    CUDA_CHECK(cudaMemcpy(&c, dev_c, sizeof c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dev_c));

    printf("%.1f + %.1f = %.1f\n", (float)a, (float)b, c);
    float want = (float)a + (float)b;
    int failures = check(c == want, "GPU sum %g equals the CPU's %g", c, want);
    return exit_status(failures);
}
