/* Lab ch3_allreduce: a sum over every GPU with NCCL's all-reduce (chapter 3, going further: multi_gpu.cu).
 *
 * Each GPU g of the machine holds an array of n floats, send[g]. Write lab_allreduce: when it returns,
 * recv[g] on every GPU holds the element-by-element sum of all the GPUs' arrays. NCCL's all-reduce does
 * exactly that, over NVLink or whatever links the GPUs: one ncclAllReduce per GPU, with that GPU's
 * buffers, its communicator comms[g] and its stream streams[g], the count in elements, ncclFloat and
 * ncclSum. The data never leaves the GPUs.
 *
 * One thread drives every GPU here, so the calls go between ncclGroupStart() and ncclGroupEnd(): alone,
 * one GPU's call may wait for the others' calls, which this same thread has not made yet; in a group,
 * NCCL launches them together (multi_gpu.cu's comment says the same). NCCL only queues the work on the
 * streams: before returning, wait for every GPU's stream (cudaStreamSynchronize), since recv is read as
 * soon as you return.
 *
 * The runner made the communicators once (ncclCommInitAll: GPU g is rank g) and a stream per GPU; it
 * makes the buffers for each call. On a machine with one GPU there is one rank, and the sum of one array
 * is that array, copied into recv: the same code, and it is checked there too. multi_gpu.cu reduces in
 * place (recv == send); here they differ, so that even one GPU shows whether your call wrote recv.
 *
 * Contract:
 *   sizes: checked n = 1, 3, 33, 1000, 100003, 2^22 + 5 on each GPU, over every GPU the machine shows (up
 *     to 16); not timed.
 *   pointers: send[g] and recv[g], each its own cudaMalloc on GPU g of n floats rounded up to 16 bytes:
 *     256-byte aligned, never offset.
 *   zero: n and gpus are at least 1.
 *   values: uniform in [0.5, 1.5), each GPU's own, drawn afresh for every call; recv arrives filled with
 *     0xff bytes.
 *   index: NCCL's: n is below 2^31 here.
 *   binding: the Rules line and what recv holds when you return, every stream finished; the group and the
 *     waits are the way.
 *
 * Rules: the communicators, the streams and the buffers are given; no kernels and no copies of your own
 *   (NCCL moves and adds the data).
 * Judged on its results alone, with no speed step: with one GPU there is nothing to time against.
 *   make lab L=ch3_allreduce
 */
#include <nccl.h>

/* send[g] and recv[g]: n floats each on GPU g, for g = 0 .. gpus - 1. */
void lab_allreduce(float *const *send, float *const *recv, long long n, int gpus, ncclComm_t *comms,
                   cudaStream_t *streams)
{
    /* your code here */
}
