/* Accepted: an honest block_sum with the asserts and debug printfs a student leaves in while working. Their
 * strings live in the cubin's global sections ($str), which are no memory of the file's own. */
#include <assert.h>
#include <stdio.h>

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *partial)
{
    __shared__ float s[THREADS];
    assert(blockDim.x == THREADS && "the launch is the statement's: blocks of THREADS threads");
    assert(gridDim.x > 0 && "a grid of at least one block, whatever n is, is what the statement launches");
    float mine = 0.0f;
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        mine += x[i];
    s[threadIdx.x] = mine;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0 && n < 0)
        printf("block %d of %d: n is %lld, which no call of the lab gives; the sum of my share is %f\n",
               blockIdx.x, gridDim.x, n, s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -1)
        printf("a second debugging line, with its own long string of text that a student leaves in: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -2)
        printf("a third debugging line, with yet another long string of text that a student leaves in: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -3)
        printf("debugging line 4: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -4)
        printf("debugging line 5: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -5)
        printf("debugging line 6: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -6)
        printf("debugging line 7: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -7)
        printf("debugging line 8: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -8)
        printf("debugging line 9: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -9)
        printf("debugging line 10: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -10)
        printf("debugging line 11: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -11)
        printf("debugging line 12: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && n == -12)
        printf("debugging line 13: the block's sum after the tree, as a student prints it while looking: %f\n", s[0]);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    block_sum<<<32 * sms, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, 32 * sms, result);
}
