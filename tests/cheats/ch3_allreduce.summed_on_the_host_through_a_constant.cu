/* Attack (rules.txt's copy rule and "no kernels of your own" read by name and by SASS; needs a GPU to
 * confirm, and NCCL, MPI-free). ch3_allreduce: "no kernels and no copies of your own (NCCL moves and adds
 * the data)"; rules.txt refuses cudaMemcpy, cudaMemcpyAsync, 2D, 3D, Peer, Batch and Array copies by name,
 * and any SASS instruction (sass "."). It lets through cudaMemcpyToSymbol and cudaMemcpyFromSymbol ("copies
 * to and from the file's own symbols (1 KiB at most) are its own"), and the 1 KiB is counted over the
 * .nv.global sections only (labs/elf.awk), so a __constant__ array of 64 KiB is no memory of its own to
 * the rules; a file whose only device code is that array has a cubin with no .text, so no SASS to refuse.
 * This file calls no NCCL function: it moves every GPU's array through the constant bank to the host,
 * 64 KiB at a time (device to constant: cudaMemcpyToSymbol with cudaMemcpyDeviceToDevice; constant to
 * host: cudaMemcpyFromSymbol), adds them on the CPU in double, and sends the sums back the same way into
 * every recv[g]. The lab is judged on its results alone (no speed step).
 * Expected on a GPU: PASS. (The same two calls are a host<->device copy channel in every lab: the
 * "on_the_cpu" cheat's cudaMemcpy refusal does not hold where the statement cares about results only,
 * e.g. ch4_mutex, ch3_events' partial sums.)
 * Fix: labs/elf.awk: count .nv.constant[0-9]* user banks (.nv.constant3 is __constant__) with .nv.global;
 * rules.txt: refuse cudaMemcpy(To|From)Symbol(Async)? with a cudaMemcpyKind other than the symbol's
 * (cannot be read from nm: refuse them where the lab has no use for them), or limit the symbol rule to
 * .nv.global and check the size; add cudaGraphAddMemcpyNode.*|cudaGraph.*MemcpyNode.* and
 * cudaMemPoolCreate|cudaMallocFromPoolAsync to the copy and host-memory lines. */
#include <nccl.h>
#include <vector>

#define CHUNK 16384  /* floats: 64 KiB, the constant bank's user size */

__constant__ float bounce[CHUNK];

void lab_allreduce(float *const *send, float *const *recv, long long n, int gpus, ncclComm_t *comms,
                   cudaStream_t *streams)
{
    (void)comms;
    std::vector<double> sum(CHUNK);
    std::vector<float> part(CHUNK);
    for (int g = 0; g < gpus; g++) {
        cudaSetDevice(g);
        cudaStreamSynchronize(streams[g]);
    }
    for (long long first = 0; first < n; first += CHUNK) {
        long long count = n - first < CHUNK ? n - first : CHUNK;
        for (long long i = 0; i < count; i++)
            sum[i] = 0.0;
        for (int g = 0; g < gpus; g++) {
            cudaSetDevice(g);
            cudaMemcpyToSymbol(bounce, send[g] + first, count * sizeof(float), 0, cudaMemcpyDeviceToDevice);
            cudaMemcpyFromSymbol(part.data(), bounce, count * sizeof(float), 0, cudaMemcpyDeviceToHost);
            for (long long i = 0; i < count; i++)
                sum[i] += part[i];
        }
        for (long long i = 0; i < count; i++)
            part[i] = (float)sum[i];
        for (int g = 0; g < gpus; g++) {
            cudaSetDevice(g);
            cudaMemcpyToSymbol(bounce, part.data(), count * sizeof(float), 0, cudaMemcpyHostToDevice);
            cudaMemcpyFromSymbol(recv[g] + first, bounce, count * sizeof(float), 0, cudaMemcpyDeviceToDevice);
        }
    }
    cudaSetDevice(0);
}
