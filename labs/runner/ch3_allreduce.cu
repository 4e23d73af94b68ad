/* ch3_allreduce's runner stub: the student's all-reduce over the GPUs the judge counted. The
 * communicators (ncclCommInitAll, GPU g is rank g) and a stream per GPU are made once, on the first call;
 * each call makes the buffers on every GPU, fills send[g] with GPU g's part of the judge's input and
 * recv[g] with poison, calls the student's function, and copies every recv[g] back, GPU after GPU, into
 * the judge's output.
 * Whether the function waited for its work is a result too, and only this stub can see it (its own
 * copies back wait for the streams): before the call each stream is given HOLD_NS of work of the stub's
 * own, so a function that returns without waiting returns while its streams are still busy, every time.
 * The streams' state at the return goes back to the judge, one int per GPU (1: finished). */
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

enum { MAX_GPUS = 16 };
#define HOLD_NS 50000000ull  /* 50 ms: far longer than queueing an all-reduce takes */

void lab_allreduce(float *const *send, float *const *recv, long long n, int gpus, ncclComm_t *comms,
                   cudaStream_t *streams);

/* The stub's own trouble, before or after the student's code: not the student's fault. */
static void cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "runner: %s: %s\n", what, cudaGetErrorString(err));
        exit(3);
    }
}

/* One thread that keeps its GPU busy for `ns` by the GPU's own clock. */
__global__ void hold(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < ns);
}

/* The judge's arguments: the input (gpus x n floats, GPU g's part at g x n), the output (the same
 * shape), n, gpus, and one int per GPU for whether its stream had finished when the function returned. */
void lab_call(const struct lab_values *v)
{
    static ncclComm_t comms[MAX_GPUS];
    static cudaStream_t streams[MAX_GPUS];
    static int made;  /* the GPUs the communicators were made for */
    const float *in = (const float *)lab_p(v, 0);
    float *out = (float *)lab_p(v, 1);
    long long n = lab_i(v, 2);
    int gpus = (int)lab_i(v, 3), *finished = (int *)lab_p(v, 4);
    if (gpus < 1 || gpus > MAX_GPUS || (made && gpus != made)) {
        fprintf(stderr, "runner: the judge asked for %d GPUs (at most %d, the same each call)\n", gpus, MAX_GPUS);
        exit(3);
    }
    if (!made) {
        /* multi_gpu.cu's setting: NVLink SHARP (multicast) is not needed by a few GPUs, and a shared
         * machine may not offer it. */
        setenv("NCCL_NVLS_ENABLE", "0", 0);
        int devices[MAX_GPUS];
        for (int g = 0; g < gpus; g++) {
            devices[g] = g;
            cuda_ok(cudaSetDevice(g), "a GPU the judge counted");
            cuda_ok(cudaStreamCreateWithFlags(&streams[g], cudaStreamNonBlocking), "making the streams");
        }
        ncclResult_t r = ncclCommInitAll(comms, gpus, devices);
        if (r != ncclSuccess) {
            fprintf(stderr, "runner: ncclCommInitAll over %d GPUs: %s\n", gpus, ncclGetErrorString(r));
            exit(3);
        }
        made = gpus;
    }

    /* Each buffer is rounded up to 16 bytes: NCCL reads user buffers in 16-byte pieces (NVIDIA/nccl
     * issue 265), and memcheck would blame a correct call for the bytes past n. */
    float *send[MAX_GPUS], *recv[MAX_GPUS];
    size_t bytes = (size_t)n * sizeof(float), room = (bytes + 15) / 16 * 16;
    for (int g = 0; g < gpus; g++) {
        cuda_ok(cudaSetDevice(g), "choosing a GPU");
        cuda_ok(cudaMalloc(&send[g], room), "the buffers");
        cuda_ok(cudaMalloc(&recv[g], room), "the buffers");
        cuda_ok(cudaMemcpy(send[g], in + g * n, bytes, cudaMemcpyHostToDevice), "filling send");
        cuda_ok(cudaMemset(recv[g], 0xff, room), "poisoning recv");
        cuda_ok(cudaDeviceSynchronize(), "filling the buffers");
    }
    for (int g = 0; g < gpus; g++) {
        cuda_ok(cudaSetDevice(g), "choosing a GPU");
        hold<<<1, 1, 0, streams[g]>>>(HOLD_NS);
        cuda_ok(cudaGetLastError(), "the hold");
    }
    cuda_ok(cudaSetDevice(0), "choosing GPU 0");

    lab_allreduce(send, recv, n, gpus, comms, streams);

    /* Right at the return: which streams had finished. A query's "not ready" is not an error; any
     * other error is the student's code's. */
    cudaError_t err = cudaGetLastError();
    for (int g = 0; g < gpus; g++) {
        cudaError_t q = cudaStreamQuery(streams[g]);
        finished[g] = q == cudaSuccess;
        if (q != cudaSuccess && q != cudaErrorNotReady && err == cudaSuccess)
            err = q;
    }
    (void)cudaGetLastError();
    for (int g = 0; g < gpus && err == cudaSuccess; g++) {
        cudaSetDevice(g);
        err = cudaStreamSynchronize(streams[g]);
        if (err == cudaSuccess)
            err = cudaDeviceSynchronize();
        if (err == cudaSuccess)
            err = cudaMemcpy(out + g * n, recv[g], bytes, cudaMemcpyDeviceToHost);
        if (err != cudaSuccess)
            fprintf(stderr, "runner: on GPU %d, after your code ran:\n", g);
    }
    if (err != cudaSuccess) {  /* the runner's own check sees GPU 0 only: said here, for every GPU */
        fprintf(stderr, "runner: a CUDA error after your code ran: %s (%s)\n", cudaGetErrorName(err),
                cudaGetErrorString(err));
        exit(1);
    }
    for (int g = 0; g < gpus; g++) {
        cuda_ok(cudaSetDevice(g), "choosing a GPU");
        cuda_ok(cudaFree(send[g]), "freeing the buffers");
        cuda_ok(cudaFree(recv[g]), "freeing the buffers");
    }
    cuda_ok(cudaSetDevice(0), "choosing GPU 0");
}
