/* ch3_debug_async's runner stub: the student's host code, as labs/ch3_debug_async.cu gives it. in is a
 * window: the judge's buffer holds `offset` floats (NaN) and then the n samples, and the file gets a
 * pointer to the first sample, offset floats past the start of the runner's cudaMalloc (256-byte
 * aligned). The stream is the lab's, made once on the first call. */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

void lab_gain_clip(const float *in, float *out, long long n, float gain, cudaStream_t stream);

void lab_call(const struct lab_values *v)
{
    static cudaStream_t stream;
    if (!stream) {
        cudaError_t err = cudaStreamCreate(&stream);
        if (err != cudaSuccess) {  /* before the student's code: the runner's trouble, not theirs */
            fprintf(stderr, "runner: cannot make the lab's stream: %s\n", cudaGetErrorString(err));
            exit(3);
        }
    }
    lab_gain_clip((const float *)lab_p(v, 0) + lab_i(v, 1), (float *)lab_p(v, 2), lab_i(v, 3), (float)lab_f(v, 4),
                  stream);
}
