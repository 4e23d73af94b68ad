/* Lab ch3_allreduce, a solution: one ncclAllReduce per GPU, in one group, then a wait on each stream.
 *
 * The group lets one thread start the GPUs' parts of the same all-reduce together; each call names its
 * GPU's buffers, communicator and stream. NCCL returns once the work is queued, so the streams are
 * waited for before returning.
 *   make lab L=ch3_allreduce FILE=labs/solutions/ch3_allreduce.cu
 */
#include <nccl.h>

/* send[g] and recv[g]: n floats each on GPU g, for g = 0 .. gpus - 1. */
void lab_allreduce(float *const *send, float *const *recv, long long n, int gpus, ncclComm_t *comms,
                   cudaStream_t *streams)
{
    ncclGroupStart();
    for (int g = 0; g < gpus; g++)
        ncclAllReduce(send[g], recv[g], (size_t)n, ncclFloat, ncclSum, comms[g], streams[g]);
    ncclGroupEnd();
    for (int g = 0; g < gpus; g++)
        cudaStreamSynchronize(streams[g]);  /* recv is read as soon as this returns */
}
