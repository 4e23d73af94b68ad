/* A forgery (ch3_graph allows every cudaGraph.* call, and with them the graph's copies and host work): the
 * steps computed on the CPU. An explicit graph of three nodes: a memcpy node (cudaGraphAddMemcpyNode1D)
 * copies a to the host, a host node (cudaGraphAddHostNode) runs the `replays` steps there, the kernels'
 * arithmetic in C, and a memcpy node copies a back. No kernel launched, no cudaMemcpy called, no malloc
 * (a static host buffer): every call is a cudaGraph one, which the lab's `allow` line lets through.
 * Why it must fail: "no copies" and "no kernels of your own" (the statement: capture and graph calls
 * only); the `allow` should name the capture and the calls the lesson needs, not cudaGraphAddMemcpyNode*,
 * cudaGraphAddHostNode, cudaGraphAddMemAllocNode. */
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
        a[i] = (b[i] * 2654435761u) ^ (b[i > 0 ? i - 1 : m - 1] + salt);
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
struct work {
    unsigned *a;
    int m, replays;
};

static unsigned host_a[STREAMS << 16], host_b[STREAMS << 16];  /* m up to 2^16 (the judge: 1000) */

static void CUDART_CB steps_on_the_cpu(void *p)
{
    struct work *w = (struct work *)p;
    int m = w->m;
    for (int r = 0; r < w->replays; r++)
        for (int k = 0; k < STREAMS; k++) {
            unsigned *ak = host_a + (long long)k * m, *bk = host_b + (long long)k * m;
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < m; i++)
                    bk[i] = ak[i] + ak[i + 1 < m ? i + 1 : 0];
                unsigned salt = (unsigned)(k * ROUNDS + round);
                for (int i = 0; i < m; i++)
                    ak[i] = (bk[i] * 2654435761u) ^ (bk[i > 0 ? i - 1 : m - 1] + salt);
            }
        }
}

void lab_replay(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                cudaEvent_t events[STREAMS])
{
    static struct work w;
    w.a = a, w.m = m, w.replays = replays;
    size_t bytes = (size_t)STREAMS * m * sizeof(unsigned);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t down, cpu, up;
    cudaGraphCreate(&graph, 0);
    cudaGraphAddMemcpyNode1D(&down, graph, NULL, 0, host_a, a, bytes, cudaMemcpyDeviceToHost);
    cudaHostNodeParams params = {steps_on_the_cpu, &w};
    cudaGraphAddHostNode(&cpu, graph, &down, 1, &params);
    cudaGraphAddMemcpyNode1D(&up, graph, &cpu, 1, a, host_a, bytes, cudaMemcpyHostToDevice);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, streams[0]);
    cudaStreamSynchronize(streams[0]);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
}
