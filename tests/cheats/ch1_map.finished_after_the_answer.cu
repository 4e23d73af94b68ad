/* Class 4 (returning before the work is done, a thread that outlives the call): in a timed call (the same
 * x as the call before, at 2^26 + 1) the file launches nothing itself; a thread of its own waits 30 us,
 * long enough for the runner's cudaDeviceSynchronize to find the GPU idle and its DONE to leave, then
 * launches the saxpy on a stream of its own. The judge's clock stops at once; whether its sample kernel
 * (another context) sees y written depends on the order the GPU takes the two contexts' work in.
 * Correctness calls are honest.
 * A correct judge should say: FAIL (a timed run failed: outputs not there when the runner answered).
 * Expected today: FAIL (a timed run failed), or PASS near 0 ms where the GPU lets the thread's kernel
 * finish before the judge's sample kernel runs (then the judge's clock is fooled). */
#include <pthread.h>
#include <time.h>

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static struct { float a; const float *x; float *y; long long n; int sms, pending; } job;

static void *late(void *unused)
{
    (void)unused;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!job.pending)
            pthread_cond_wait(&go, &lock);
        job.pending = 0;
        pthread_mutex_unlock(&lock);
        struct timespec t = {0, 30000};
        nanosleep(&t, NULL);
        saxpy<<<32 * job.sms, 256, 0, s>>>(job.a, job.x, job.y, job.n);
    }
    return NULL;
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    static const float *last_x;
    static int started;
    int timed = x == last_x && n == (1LL << 26) + 1;
    last_x = x;
    if (!timed) {
        saxpy<<<32 * sms, 256>>>(a, x, y, n);
        return;
    }
    if (!started) {
        pthread_t t;
        started = pthread_create(&t, NULL, late, NULL) == 0;
    }
    pthread_mutex_lock(&lock);
    job.a = a, job.x = x, job.y = y, job.n = n, job.sms = sms, job.pending = 1;
    pthread_cond_signal(&go);
    pthread_mutex_unlock(&lock);
}
