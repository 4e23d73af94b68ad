/* ch3_graph's runner stub: the student's replay, as labs/ch3_graph.cu gives it. The streams and events
 * are the lab's, made once on the first call and given to every call: non-blocking streams (so that no
 * work of stream 0 joins a capture), events without timing (they only order the streams). */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

#define STREAMS 8  /* the statement's */

void lab_replay(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                cudaEvent_t events[STREAMS]);

void lab_call(const struct lab_values *v)
{
    static cudaStream_t streams[STREAMS];
    static cudaEvent_t events[STREAMS];
    static int made;
    for (; made < STREAMS; made++) {
        cudaError_t err = cudaStreamCreateWithFlags(&streams[made], cudaStreamNonBlocking);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags(&events[made], cudaEventDisableTiming);
        if (err != cudaSuccess) {  /* before the student's code: the runner's trouble, not theirs */
            fprintf(stderr, "runner: cannot make the lab's streams and events: %s\n", cudaGetErrorString(err));
            exit(3);
        }
    }
    lab_replay((unsigned *)lab_p(v, 0), (unsigned *)lab_p(v, 1), (int)lab_i(v, 2), (int)lab_i(v, 3), streams, events);
}
