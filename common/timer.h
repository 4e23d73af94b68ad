/* timer.h: host wall clock and a CUDA-event timer.
 *   double t0 = wall_seconds();                 host time, for the CPU and for whole runs
 *   struct gpu_timer t; gpu_timer_create(&t);
 *   gpu_timer_start(&t, stream); ...work on stream...; float ms = gpu_timer_stop(&t);
 * The events are recorded on the stream, so the window holds exactly the GPU work queued between them.
 *   say_how_long("timing", seconds, "-r 1");   before a long part: a line when it takes over 10 s
 *   say_progress(done);                         inside it (done: 0 to 1): how far, about every 10 s once
 *                                               it is announced at 30 s or more; on stderr in a log
 *   say_runs_take(warm_up_ms, reps);           after a timing loop's warm-up: the same for the runs to come
 * The course's one timing loop: a warm-up run, then reps timed runs, each between two CUDA events on the
 * stream (timed_runs) or by the wall clock (timed_runs_wall: work that ends on the host), the runs
 * announced from the warm-up's time when they take long:
 *   struct timed_runs runs = timed_runs(ms, reps, stream);
 *   while (timed_run(&runs))
 *       kernel<<<grid, block, 0, stream>>>(...);    runs.run: -1 in the warm-up, then 0 .. reps - 1
 *   struct stats s = stats_of(ms, reps);           (stats.h)
 * Work that must come between the runs but not inside them (an L2 flush, a refill) follows
 * timed_run_end, which ends the run's window where it is called (the announcement counts that work too):
 *   while (timed_run(&runs)) {
 *       kernel<<<grid, block, 0, stream>>>(...);
 *       timed_run_end(&runs);
 *       flush<<<...>>>(...);                        between this run and the next, not timed
 *   }
 * A check is not such work: the course checks a separate run before the timing loop. runs.quiet = 1
 * before the loop: no announcement (bandwidth.c's probes, whose runs no option sets). */
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

struct timed_runs {
    double *ms;           /* where the reps times go, in milliseconds */
    int reps, run;        /* run: -2 before the first, -1 the warm-up, then 0 .. reps - 1 */
    int wall;             /* 1: by the wall clock */
    int quiet;            /* 1: the runs are not announced (a probe, whose runs no option of the program sets) */
    double started;       /* the wall clock at the run's start (just before its start event) */
    double window_end;    /* the wall clock when the run's window ended; 0 while it is open */
    double warm_up_ms;    /* the warm-up's window */
    struct gpu_timer timer;
};

double wall_seconds(void);
void gpu_timer_create(struct gpu_timer *t);
void gpu_timer_start(struct gpu_timer *t, cudaStream_t stream);
float gpu_timer_stop(struct gpu_timer *t);  /* records stop, waits for it, returns milliseconds */
void gpu_timer_destroy(struct gpu_timer *t);
void say_how_long(const char *what, double seconds, const char *shorter);
void say_progress(double done);
void say_runs_take(double warm_up_ms, int runs);
struct timed_runs timed_runs(double *ms, int reps, cudaStream_t stream);
struct timed_runs timed_runs_wall(double *ms, int reps);
int timed_run(struct timed_runs *t);  /* ends the run before, starts the next; 0 once all have run */
void timed_run_end(struct timed_runs *t);  /* ends this run's window now; the rest of the body is not timed */

#ifdef __cplusplus
}
#endif
#endif
