/* ch3_debug_stream's runner stub: the student's host code, as labs/ch3_debug_stream.cu gives it. Its stream
 * is the lab's, made once on the first call, and non-blocking: stream 0 neither waits for it nor is waited
 * for by it, so a wait on stream 0 waits for none of the student's work, as the statement warns. */
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

void lab_normalize_squares(const float *host_in, float *host_squares, float *host_out, long long n, float *dev_in,
                           float *dev_squares, cudaStream_t stream);

void lab_call(const struct lab_values *v)
{
    static cudaStream_t stream;
    if (!stream) {
        cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        if (err != cudaSuccess) {  /* before the student's code: the runner's trouble, not theirs */
            fprintf(stderr, "runner: cannot make the lab's stream: %s\n", cudaGetErrorString(err));
            exit(3);
        }
    }
    lab_normalize_squares((const float *)lab_p(v, 0), (float *)lab_p(v, 1), (float *)lab_p(v, 2), lab_i(v, 3),
                          (float *)lab_p(v, 4), (float *)lab_p(v, 5), stream);
}
