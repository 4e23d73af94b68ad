/* Lab ch3_graph: a step of many small kernels captured once into a CUDA graph, then replayed (chapter 3,
 * going further: ch3_streams_events/graphs.cu).
 *
 * queue_step is fixed: one step of a small simulation on STREAMS arrays of m elements (array k at a + k m,
 * its scratch at b + k m), array k on streams[k], ROUNDS x 2 tiny kernels each, the streams forked from
 * streams[0] and joined back into it by events. Write lab_replay: run `replays` steps, one after the
 * other. Queued call by call, a step costs the host 32 launches and 22 event calls, a few microseconds
 * each, and the GPU, whose kernels here are tiny, spends the step waiting for them. Instead:
 *   - record one step: cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal), queue_step(...),
 *     cudaStreamEndCapture(streams[0], &graph). Between the two, the calls are recorded, not run, and the
 *     events that fork the other streams from streams[0] bring their work into the graph, with its order;
 *   - make it launchable, once (cudaGraphInstantiate(&exec, graph, 0)), then launch it `replays` times on
 *     streams[0] (cudaGraphLaunch): one call a step, and the GPU runs the step's kernels back to back;
 *   - wait for streams[0], and destroy the graph and its executable (cudaGraphDestroy,
 *     cudaGraphExecDestroy).
 * a holds the result when you return; the kernels and queue_step are fixed, do not change them.
 *
 * Contract:
 *   sizes: checked (m, replays) = (1, 1), (31, 3), (32, 2), (33, 2), (255, 5), (257, 7), (1000, 100);
 *     timed (1000, 200), the whole call.
 *   pointers: a and b, each its own cudaMalloc of exactly STREAMS x m unsigned: 256-byte aligned, never
 *     offset.
 *   zero: m and replays are at least 1.
 *   values: a: all 32 bits random, drawn afresh for every call (the arithmetic wraps modulo 2^32); b
 *     arrives filled with 0xff bytes.
 *   index: 32-bit: STREAMS x m is at most 8000 here.
 *   binding: the Rules line (rules.txt compares the kernels' machine code with the hand-out's) and what a
 *     holds on return; the capture, instantiate, launch and destroy steps are the way.
 *
 * Rules: the kernels and queue_step are fixed, the streams and the events given; capture and graph calls
 * only (no copies, no memory of your own, no kernels of your own).
 * Target: 70% of the course's solution's speed; the limit is the judge's own graph of the same step,
 * captured, instantiated, replayed and destroyed in its own process, timed as your call is.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch3_graph
 */

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
void lab_replay(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                cudaEvent_t events[STREAMS])
{
    /* your code here */
}
