/* timer.c: see timer.h. */
#define _POSIX_C_SOURCE 200809L
#include "timer.h"
#include "check.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double wall_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

void gpu_timer_create(struct gpu_timer *t)
{
    CUDA_CHECK(cudaEventCreate(&t->start));
    CUDA_CHECK(cudaEventCreate(&t->stop));
    t->stream = 0;
}

void gpu_timer_start(struct gpu_timer *t, cudaStream_t stream)
{
    t->stream = stream;
    CUDA_CHECK(cudaEventRecord(t->start, stream));
}

float gpu_timer_stop(struct gpu_timer *t)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventRecord(t->stop, t->stream));
    /* Also surfaces any error from the work inside the window (a kernel that faulted). */
    CUDA_CHECK(cudaEventSynchronize(t->stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
    return ms;
}

void gpu_timer_destroy(struct gpu_timer *t)
{
    CUDA_CHECK(cudaEventDestroy(t->start));
    CUDA_CHECK(cudaEventDestroy(t->stop));
}

/* The long part that say_how_long announced last: when it began, how long it should take. */
static double part_start, part_seconds, part_said;
static char part_what[96];

static void announce(const char *what, double seconds, const char *shorter)
{
    if (seconds < 10.0)
        return;
    printf("note: %s will take about %.0f s on this GPU (%s makes it shorter)\n", what, seconds, shorter);
    fflush(stdout);
}

void say_how_long(const char *what, double seconds, const char *shorter)
{
    part_start = part_said = wall_seconds();
    part_seconds = seconds;
    snprintf(part_what, sizeof part_what, "%s", what);
    announce(what, seconds, shorter);
}

void say_progress(double done)
{
    double now = wall_seconds();
    if (part_seconds < 30.0 || now - part_said < 10.0 || done <= 0.0 || done >= 1.0)
        return;
    part_said = now;
    double spent = now - part_start, left = spent / done - spent;
    /* On a terminal, in the output; in a log or a pipe, on stderr, so that the results stay clean. */
    FILE *to = isatty(fileno(stdout)) ? stdout : stderr;
    fprintf(to, "  ... %s: %.0f%% after %.0f s, about %.0f s to go\n", part_what, 100.0 * done, spent, left);
    fflush(to);
}

void say_runs_take(double warm_up_ms, int runs)
{
    char what[64];
    snprintf(what, sizeof what, "%d timed runs of %.3g s", runs, warm_up_ms / 1e3);
    announce(what, runs * warm_up_ms / 1e3, "a smaller -r");  /* within a part: say_progress stays with it */
}

struct timed_runs timed_runs(double *ms, int reps, cudaStream_t stream)
{
    struct timed_runs t = {.ms = ms, .reps = reps, .run = -2, .wall = 0};
    gpu_timer_create(&t.timer);
    t.timer.stream = stream;
    return t;
}

struct timed_runs timed_runs_wall(double *ms, int reps)
{
    struct timed_runs t = {.ms = ms, .reps = reps, .run = -2, .wall = 1};
    return t;
}

void timed_run_end(struct timed_runs *t)
{
    if (t->window_end > 0.0)  /* ended already */
        return;
    double ms = t->wall ? (wall_seconds() - t->started) * 1e3 : gpu_timer_stop(&t->timer);
    if (t->run >= 0)
        t->ms[t->run] = ms;
    else
        t->warm_up_ms = ms;
    t->window_end = wall_seconds();
}

int timed_run(struct timed_runs *t)
{
    if (t->run >= -1)  /* the run that just ended */
        timed_run_end(t);
    /* The warm-up's time, with what its body did after its window, says how long the rest will take. */
    if (t->run == -1 && !t->quiet)
        say_runs_take(t->warm_up_ms + (wall_seconds() - t->window_end) * 1e3, t->reps);
    t->window_end = 0.0;
    if (++t->run >= t->reps) {
        if (!t->wall)
            gpu_timer_destroy(&t->timer);
        return 0;
    }
    t->started = wall_seconds();
    if (!t->wall)
        gpu_timer_start(&t->timer, t->timer.stream);
    return 1;
}
