/* add_array.cu: Part 1, Examples 1.2 and 1.3, one thread per array element.
 * Each thread computes its global index from its block and thread ids, and adds one pair of elements;
 * the grid is rounded up to whole blocks, so the threads past the end must check the bounds and idle.
 *   make ch1 && ./ch1_embarrassing/add_array            (N = 20, then N = 1,000,000)
 *   ./ch1_embarrassing/add_array -n 12345677            (any N for the second launch)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"

/* The global index: which block we are in, times the block's width, plus our place in the block. */
__device__ long long global_index(void)
{
    return threadIdx.x + (long long)blockDim.x * blockIdx.x;
}

__global__ void add_array(const float *a, const float *b, float *c, long long n)
{
    long long i = global_index();
    if (i < n)  /* the last block may reach past the end of the arrays */
        c[i] = a[i] + b[i];
}

/* A fixed pseudo-random number in [0, 1) for element i, from a multiplicative hash of i: the same on every
 * machine, and fast enough for billions of elements (rand() took over a minute for 2^31 of them). Host
 * code repeated on purpose in grid_stride.cu, add_array.cu and vector_add_streams.cu. */
static double uniform(long long i, unsigned seed)
{
    unsigned long long x = ((unsigned long long)i * 2 + 1 + ((unsigned long long)seed << 40)) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return (double)(x >> 40) / 16777216.0;  /* 24 bits: exact in a float */
}

/* Adds on the GPU with the given launch shape and compares with the CPU; returns 1 if they differ. */
static int add_and_check(long long n, int blocks, int threads_per_block, int show)
{
    size_t bytes = n * sizeof(float);
    float *a = (float *)host_alloc(bytes), *b = (float *)host_alloc(bytes), *c = (float *)host_alloc(bytes);
    for (long long i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)uniform(i, 1);
    }
    float *dev_a, *dev_b, *dev_c;
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_b, bytes));
    CUDA_CHECK(cudaMalloc(&dev_c, bytes));
    CUDA_CHECK(cudaMemcpy(dev_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dev_b, b, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dev_c, 0xff, bytes));  /* NaN everywhere: an element nobody wrote shows */

    add_array<<<blocks, threads_per_block>>>(dev_a, dev_b, dev_c, n);
    CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(c, dev_c, bytes, cudaMemcpyDeviceToHost));

    /* The GPU does the same single IEEE addition as the CPU, so the results must be equal exactly. */
    long long wrong = 0;
    for (long long i = 0; i < n; i++)
        wrong += c[i] != a[i] + b[i];
    if (show)
        for (long long i = 0; i < n; i++)
            printf("  c[%2lld] = %4.1f + %.3f = %.3f\n", i, a[i], b[i], c[i]);
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFree(dev_c));
    free(a);
    free(b);
    free(c);
    return check(wrong == 0, "%lld elements, %lld differ from the CPU", n, wrong);
}

int main(int argc, char **argv)
{
    long long n = 1000000;
    int threads_per_block = 256;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 4e9, "elements for the second launch (default 1000000)"},
        {"--threads", CLI_INT, &threads_per_block, 1, 1024, "threads per block there (default 256)"},
    };
    int device = cli_parse(argc, argv, "Part 1, Examples 1.2-1.3: one thread per element.", options, COUNT_OF(options));
    /* The grid's x dimension holds at most 2^31 - 1 blocks: a shape past it is a usage error, found
     * before the GPU is touched. */
    long long blocks = ceil_div(n, threads_per_block);
    if (blocks > 2147483647LL)
        cli_usage_error(argv[0], "-n %lld with --threads %d needs %lld blocks, more than the grid's x limit "
                        "2^31 - 1; use more threads per block", n, threads_per_block, blocks);
    struct device_info dev;
    device_start(device, &dev);
    /* Three arrays of n floats, on the GPU and on the host. */
    n = size_to_fit(&dev, "-n", n, 1, 3 * sizeof(float), 3 * sizeof(float), 0);
    blocks = ceil_div(n, threads_per_block);
    int failures = 0;

    /* Example 1.2: 20 elements, 4 blocks of 8 threads. 32 threads start; the if keeps 12 of them idle. */
    printf("\nN = 20 with 4 blocks x 8 threads = 32 threads: 20 add, %d find i >= N and do nothing\n",
           4 * 8 - 20);
    failures += add_and_check(20, 4, 8, 1);

    /* Example 1.3: a million elements. The block count is a ceiling division, so the grid covers N even
     * when N is not a multiple of the block size: ceil_div(N, 256) = (1,000,000 + 255) / 256 = 3907 blocks. */
    printf("\nN = %lld with %d threads per block: ceil(N / %d) = %lld blocks, %lld idle threads\n", n,
           threads_per_block, threads_per_block, blocks, blocks * threads_per_block - n);
    failures += add_and_check(n, (int)blocks, threads_per_block, 0);
    return exit_status(failures);
}
