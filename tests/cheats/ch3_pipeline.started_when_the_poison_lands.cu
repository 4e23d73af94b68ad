/* Class 4 (the work done before the timed call, by a thread that outlives the call): host_in and host_out
 * of the timed runs are host memory the judge shares with the runner (a memfd both map), the same every
 * run. Before a run the judge writes host_in (its kernel), then poisons host_out with a CPU memset (tens
 * of ms for 512 MiB), then dev_in and dev_out, then sends TOUCH (the runner's empty kernel and a sync,
 * outside the clock), NOOP and the CALL. A thread of the file's spins on host_out's last word: when the
 * judge's poison lands there, host_in is final, and the thread copies host_in to buffers of its own on the
 * GPU, runs the kernel, and copies the result to host_out, all on one of the given streams: the runner's
 * TOUCH waits for it, untimed. The timed call then only copies its own device buffers into dev_in and
 * dev_out on the GPU (0.7 ms where the pipeline takes 11). Correctness calls are an honest pipeline.
 * A correct judge should say: FAIL (the copies were not made inside the call), or PASS but slow.
 * PASS at a few percent of the solution's time on the H200 on 2026-11-27. Now: FAIL (a timed run failed): the
 * judge writes host_in after the poison, last, so the thread copies the run before's input; and the input's
 * last change comes after the judge's last message before the call. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#define STREAMS 4
#define CHUNK (1 << 22)

__global__ void scale_shift(const float *in, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i] + 1.0f;
}

static const float *w_in;
static float *w_out, *my_in, *my_out;
static long long w_n;
static cudaStream_t w_stream;
static cudaEvent_t w_done;
static volatile int w_started;  /* runs the thread started work for, since the last call took one */

static int poisoned_at(long long i)
{
    return ((volatile unsigned *)w_out)[i] == 0xffffffffu;
}
static int poisoned(void)
{
    return poisoned_at(w_n - 1);
}
static void all_poisoned(void)  /* (a memset may store its tail first: 256 words spread over it, then 0.3 ms) */
{
    for (int k = 0; k < 256; k++)
        while (!poisoned_at(w_n / 256 * k)) {
        }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 3e5);
}

static void *watch(void *unused)
{
    (void)unused;
    for (;;) {
        while (poisoned()) {  /* the run before's answer lands first */
        }
        while (!poisoned()) {  /* then the next run's poison */
        }
        all_poisoned();
        size_t bytes = w_n * sizeof(float);
        cudaMemcpyAsync(my_in, w_in, bytes, cudaMemcpyHostToDevice, w_stream);
        scale_shift<<<(unsigned)((w_n + 255) / 256), 256, 0, w_stream>>>(my_in, my_out, w_n);
        cudaMemcpyAsync(w_out, my_out, bytes, cudaMemcpyDeviceToHost, w_stream);
        cudaEventRecord(w_done, w_stream);
        w_started = 1;
    }
    return NULL;
}

void lab_pipeline(const float *host_in, float *host_out, long long n, float *dev_in, float *dev_out,
                  cudaStream_t streams[STREAMS])
{
    static const float *last_in;
    static int watching, streak;
    int timed = host_in == last_in && n == 32LL * CHUNK + 1;
    last_in = host_in;
    streak = timed ? streak + 1 : 0;  /* (the shared buffers for sure: the third call on them) */
    if (timed && watching && w_started) {
        w_started = 0;
        cudaStreamWaitEvent(streams[0], w_done, 0);
        cudaMemcpyAsync(dev_in, my_in, n * sizeof(float), cudaMemcpyDeviceToDevice, streams[0]);
        cudaMemcpyAsync(dev_out, my_out, n * sizeof(float), cudaMemcpyDeviceToDevice, streams[0]);
        return;
    }
    for (long long first = 0, c = 0; first < n; first += CHUNK, c++) {
        long long k = n - first < CHUNK ? n - first : CHUNK;
        cudaStream_t s = streams[c % STREAMS];
        cudaMemcpyAsync(dev_in + first, host_in + first, k * sizeof(float), cudaMemcpyHostToDevice, s);
        scale_shift<<<(unsigned)((k + 255) / 256), 256, 0, s>>>(dev_in + first, dev_out + first, k);
        cudaMemcpyAsync(host_out + first, dev_out + first, k * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    if (streak >= 2 && !watching && cudaMalloc(&my_in, n * sizeof(float)) == cudaSuccess &&
        cudaMalloc(&my_out, n * sizeof(float)) == cudaSuccess && cudaEventCreate(&w_done) == cudaSuccess) {
        w_in = host_in, w_out = host_out, w_n = n, w_stream = streams[STREAMS - 1];
        cudaDeviceSynchronize();  /* this run's answer in host_out before the thread looks */
        pthread_t t;
        watching = pthread_create(&t, NULL, watch, NULL) == 0;
    }
}
