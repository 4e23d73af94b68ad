/* A cheat: the given kernel mix changed (here it differs only at large sizes, where the judge may check a
 * sample): the rules compare the given kernels with the hand-out's, before anything runs. */

#define STREAMS 8
#define ROUNDS 2
#define THREADS 256

/* b[i] = a[i] + a[i + 1], around the ring of m elements. */
__global__ void neighbours(const unsigned *a, unsigned *b, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        b[i] = a[i] + a[i + 1 < m ? i + 1 : 0];
}

/* a[i] = b[i] scrambled, mixed with b[i - 1] (around the ring) and the salt. */
__global__ void mix(const unsigned *b, unsigned *a, int m, unsigned salt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        a[i] = (b[i] * 2654435761u) ^ (b[i > 0 ? i - 1 : m - 1] + salt + (m > (1 << 20)));
}

/* One step: every array through ROUNDS rounds of neighbours then mix, array k on streams[k]; the other
 * streams wait for an event of streams[0] first (fork), and streams[0] waits for an event of each at the
 * end (join), so that a capture of streams[0] holds the whole step. */
void queue_step(unsigned *a, unsigned *b, int m, cudaStream_t streams[STREAMS], cudaEvent_t events[STREAMS])
{
    int blocks = (m + THREADS - 1) / THREADS;
    cudaEventRecord(events[0], streams[0]);
    for (int k = 1; k < STREAMS; k++)
        cudaStreamWaitEvent(streams[k], events[0], 0);
    for (int k = 0; k < STREAMS; k++) {
        unsigned *ak = a + (long long)k * m, *bk = b + (long long)k * m;
        for (int round = 0; round < ROUNDS; round++) {
            neighbours<<<blocks, THREADS, 0, streams[k]>>>(ak, bk, m);
            mix<<<blocks, THREADS, 0, streams[k]>>>(bk, ak, m, (unsigned)(k * ROUNDS + round));
        }
    }
    for (int k = 1; k < STREAMS; k++) {
        cudaEventRecord(events[k], streams[k]);
        cudaStreamWaitEvent(streams[0], events[k], 0);
    }
}

/* The runner calls this with a and b (STREAMS x m unsigned each) on the GPU, and the STREAMS streams and
 * events it made. */
void lab_replay(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                cudaEvent_t events[STREAMS])
{
    cudaGraph_t graph;
    cudaGraphExec_t step;
    cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal);
    queue_step(a, b, m, streams, events);  /* recorded, not run */
    cudaStreamEndCapture(streams[0], &graph);
    cudaGraphInstantiate(&step, graph, 0);
    for (int r = 0; r < replays; r++)
        cudaGraphLaunch(step, streams[0]);
    cudaStreamSynchronize(streams[0]);
    cudaGraphExecDestroy(step);
    cudaGraphDestroy(graph);
}
