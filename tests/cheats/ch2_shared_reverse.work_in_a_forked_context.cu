/* Class 4 (returning before the work is done): the runner waits for its own CUDA context
 * (cudaDeviceSynchronize) before it answers, not for another process's. A constructor forks a helper
 * before CUDA starts (the sandbox lets a process fork); from the second timed call on (the same shared
 * buffers as the call before, at the timed size) the file sends the helper the buffers' IPC handles
 * (cudaIpcGetMemHandle, which no rule names; opened once, in a warm-up run, which is not timed) and a
 * "go", and returns at once: the runner's sync finds nothing to wait for, the judge's clock stops at
 * once, and the helper's kernel, already running in its own context, usually finishes before the
 * judge's own kernel that reads the samples gets the GPU (contexts take turns). Correctness calls and
 * the sanitizer's runs are honest, in the runner's own context.
 * A correct judge should say: FAIL (the call returned before its work was done; or timed until the
 * outputs are final). Expected today: PASS, timed near 0 ms (or "a timed run failed" if the judge's
 * sample kernel runs before the helper's ends). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SEGMENT 256

__global__ void reverse_segments(const float *in, float *out, int n)
{
    __shared__ float tile[SEGMENT];
    long long base = (long long)blockIdx.x * SEGMENT;
    int len = n - base < SEGMENT ? (int)(n - base) : SEGMENT;
    if (threadIdx.x < len)
        tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < len)
        out[base + threadIdx.x] = tile[len - 1 - threadIdx.x];
}

struct request { cudaIpcMemHandle_t in, out; int n, open; };
static int helper = -1;

static void serve(int fd)
{
    float *in = NULL, *out = NULL;
    struct request r;
    cudaFree(0);
    for (;;) {
        ssize_t got = recv(fd, &r, sizeof r, MSG_DONTWAIT);  /* spin: no wake-up latency */
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
            _exit(0);
        if (got < 0)
            continue;
        if (got < (ssize_t)sizeof r && recv(fd, (char *)&r + got, sizeof r - got, MSG_WAITALL) <= 0)
            _exit(0);
        if (r.open) {
            cudaIpcOpenMemHandle((void **)&in, r.in, cudaIpcMemLazyEnablePeerAccess);
            cudaIpcOpenMemHandle((void **)&out, r.out, cudaIpcMemLazyEnablePeerAccess);
        } else {
            reverse_segments<<<(r.n + SEGMENT - 1) / SEGMENT, SEGMENT>>>(in, out, r.n);
        }
        cudaDeviceSynchronize();
        char ok = 1;
        if (write(fd, &ok, 1) != 1)
            _exit(0);
    }
}

__attribute__((constructor)) static void fork_helper(void)
{
    int sv[2];
    if (getenv("CUDA_INJECTION64_PATH") || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return;  /* (under the tools: no helper, every call honest) */
    pid_t p = fork();
    if (p == 0) {
        close(sv[0]);
        serve(sv[1]);
    }
    close(sv[1]);
    helper = p > 0 ? sv[0] : -1;
}

void lab_reverse_segments(const float *in, float *out, int n)
{
    static const float *last_in;
    static int opened, pending;
    int timed = helper >= 0 && in == last_in && n == (1 << 26) + 77;
    last_in = in;
    char ok;
    if (pending && read(helper, &ok, 1) == 1)  /* the last run's "done", long since */
        pending = 0;
    if (!timed || !opened) {
        reverse_segments<<<(n + SEGMENT - 1) / SEGMENT, SEGMENT>>>(in, out, n);
        if (timed) {  /* a warm-up run: the helper opens the buffers, and this run waits for it */
            struct request r;
            memset(&r, 0, sizeof r);
            r.open = cudaIpcGetMemHandle(&r.in, (void *)in) == cudaSuccess &&
                     cudaIpcGetMemHandle(&r.out, out) == cudaSuccess;
            opened = r.open && write(helper, &r, sizeof r) == sizeof r && read(helper, &ok, 1) == 1;
        }
        return;
    }
    struct request r;
    memset(&r, 0, sizeof r);
    r.n = n;
    pending = write(helper, &r, sizeof r) == sizeof r;
}
