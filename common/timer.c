/* timer.c: see timer.h. */
#define _POSIX_C_SOURCE 200809L
#include "timer.h"
#include "check.h"

#include <stdio.h>
#include <time.h>

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

void say_how_long(const char *what, double seconds, const char *shorter)
{
    if (seconds < 15.0)
        return;
    printf("note: %s will take about %.0f s on this GPU (%s makes it shorter)\n", what, seconds, shorter);
    fflush(stdout);
}

void say_runs_take(double warm_up_ms, int runs)
{
    char what[64];
    snprintf(what, sizeof what, "%d timed runs of %.3g s", runs, warm_up_ms / 1e3);
    say_how_long(what, runs * warm_up_ms / 1e3, "a smaller -r");
}
