/* ch3_pipeline's runner stub: the student's pipeline, as labs/ch3_pipeline.cu gives it. The streams are
 * the lab's, not the judge's to send: they are made once, on the first call, and given to every call. */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

#define STREAMS 4  /* the statement's */

void lab_pipeline(const float *host_in, float *host_out, long long n, float *dev_in, float *dev_out,
                  cudaStream_t streams[STREAMS]);

void lab_call(const struct lab_values *v)
{
    static cudaStream_t streams[STREAMS];
    static int made;
    for (; made < STREAMS; made++) {
        cudaError_t err = cudaStreamCreate(&streams[made]);
        if (err != cudaSuccess) {  /* before the student's code: the runner's trouble, not theirs */
            fprintf(stderr, "runner: cannot make the lab's streams: %s\n", cudaGetErrorString(err));
            exit(3);
        }
    }
    lab_pipeline((const float *)lab_p(v, 0), (float *)lab_p(v, 1), lab_i(v, 2), (float *)lab_p(v, 3),
                 (float *)lab_p(v, 4), streams);
}
