/* timer.h: host wall clock and a CUDA-event timer.
 *   double t0 = wall_seconds();                 host time, for the CPU and for whole runs
 *   struct gpu_timer t; gpu_timer_create(&t);
 *   gpu_timer_start(&t, stream); ...work on stream...; float ms = gpu_timer_stop(&t);
 * The events are recorded on the stream, so the window holds exactly the GPU work queued between them.
 *   say_how_long("timing", seconds, "-r 1");   before a long part: a line when it takes over 10 s
 *   say_progress(done);                         inside it (done: 0 to 1): how far, about every 10 s once
 *                                               it is announced at 30 s or more; on stderr in a log
 *   say_runs_take(warm_up_ms, reps);           after a timing loop's warm-up: the same for the runs to come */
#ifndef COMMON_TIMER_H
#define COMMON_TIMER_H
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif

struct gpu_timer {
    cudaEvent_t start, stop;
    cudaStream_t stream;
};

double wall_seconds(void);
void gpu_timer_create(struct gpu_timer *t);
void gpu_timer_start(struct gpu_timer *t, cudaStream_t stream);
float gpu_timer_stop(struct gpu_timer *t);  /* records stop, waits for it, returns milliseconds */
void gpu_timer_destroy(struct gpu_timer *t);
void say_how_long(const char *what, double seconds, const char *shorter);
void say_progress(double done);
void say_runs_take(double warm_up_ms, int runs);

#ifdef __cplusplus
}
#endif
#endif
