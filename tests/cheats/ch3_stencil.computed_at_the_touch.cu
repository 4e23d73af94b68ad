/* Class 4 (the work done before the timed call): before each timed run the judge writes the plate and
 * poisons out, waits for its GPU, then sends TOUCH (the runner's empty kernel, outside the clock), NOOP
 * (the round trip it subtracts) and the CALL. A thread of the file's, put between the runner and its
 * channel (a socketpair dup2'ed over the socket whose peer is the --channel path), sees the TOUCH come
 * and, before passing it on, launches the whole Jacobi step on the buffers of the timed runs (the same
 * shared buffers every run, remembered from the first timed call): the runner's TOUCH waits for it,
 * untimed. The timed call then launches the fixed grid with out = NULL (every block returns at once).
 * Correctness calls (no TOUCH before them) and the sanitizer's runs are honest.
 * A correct judge should say: FAIL, or at least PASS but slow (the step's time belongs to the call).
 * PASS at a few percent of the solution's time on the H200 on 2026-11-27. Now: FAIL (work done before the timed
 * call): the judge times the TOUCH too, counts what it takes beyond the GPU's switch in the call, and fails a
 * file that did more of its work there than in the call. */
/* ---- the proxy: the runner's channel to the judge replaced by a socketpair, a thread in between ---- */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct p_hdr { uint32_t magic, type; uint64_t bytes; };
struct p_arg { uint32_t kind, flags; uint64_t bytes; int64_t i; double f; uint32_t shared, unused; };
struct p_call { uint32_t count, unused; struct p_arg arg[16]; };
struct p_done { int32_t status; uint32_t launches, elapsed; char error[484]; };
static int p_judge = -1, p_runner = -1;
static double p_sent;  /* when the judge's request had all passed to the runner */

static double p_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static void p_read(int fd, void *b, size_t n)
{
    for (char *p = (char *)b; n;) {
        ssize_t g = recv(fd, p, n, 0);
        if (g <= 0)
            _exit(0);
        p += g, n -= (size_t)g;
    }
}
static void p_write(int fd, const void *b, size_t n)
{
    for (const char *p = (const char *)b; n;) {
        ssize_t g = send(fd, p, n, MSG_NOSIGNAL);
        if (g <= 0)
            _exit(0);
        p += g, n -= (size_t)g;
    }
}
static void p_copy(int from, int to, uint64_t n)
{
    static char b[1 << 16];
    while (n) {
        size_t k = n < sizeof b ? (size_t)n : sizeof b;
        p_read(from, b, k), p_write(to, b, k), n -= k;
    }
}
/* the runner's answer: its header and DONE, patched by p_patch (the lab's), then `more` bytes */
static void p_patch(uint32_t request, struct p_done *d);
static void p_request(uint32_t request);  /* a request's header has come, not yet passed on */
static void p_answer(uint32_t request, uint64_t more)
{
    struct p_hdr h;
    struct p_done d;
    p_read(p_runner, &h, sizeof h), p_read(p_runner, &d, sizeof d);
    p_patch(request, &d);
    p_write(p_judge, &h, sizeof h), p_write(p_judge, &d, sizeof d);
    if (d.status == 0)
        p_copy(p_runner, p_judge, more);
}
static void *p_loop(void *unused)
{
    (void)unused;
    /* the first call's answer (its size unknown here) passes as it is, until the judge speaks again */
    char b[4096];
    for (;;) {
        ssize_t g = recv(p_runner, b, sizeof b, MSG_DONTWAIT);
        if (g > 0) {
            p_write(p_judge, b, (size_t)g);
            continue;
        }
        char c;
        if (recv(p_judge, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 1 && recv(p_runner, b, 1, MSG_PEEK | MSG_DONTWAIT) <= 0)
            break;
    }
    for (;;) {
        struct p_hdr h;
        p_read(p_judge, &h, sizeof h);
        p_request(h.type);
        p_write(p_runner, &h, sizeof h);
        if (h.type == 2) {  /* CALL */
            struct p_call w;
            p_read(p_judge, &w, sizeof w), p_write(p_runner, &w, sizeof w);
            uint64_t back = 0;
            for (uint32_t a = 0; a < w.count && a < 16; a++)
                if ((w.arg[a].kind == 3 || w.arg[a].kind == 4) && !(w.arg[a].flags & 4)) {
                    if (w.arg[a].flags & 1)
                        p_copy(p_judge, p_runner, w.arg[a].bytes);
                    if (w.arg[a].flags & 2)
                        back += w.arg[a].bytes;
                    if (w.arg[a].kind == 3 && (w.arg[a].flags & 8))  /* LAB_GUARD: its 4 KiB follow */
                        back += 4096;
                }
            p_sent = p_now();
            p_answer(2, back);
        } else if (h.type == 4) {  /* SHARE: its payload may carry a file descriptor */
            char payload[16], control[CMSG_SPACE(sizeof(int))];
            struct iovec io = {payload, sizeof payload};
            struct msghdr m;
            memset(&m, 0, sizeof m), memset(control, 0, sizeof control);
            m.msg_iov = &io, m.msg_iovlen = 1, m.msg_control = control, m.msg_controllen = sizeof control;
            ssize_t g = recvmsg(p_judge, &m, 0);
            if (g <= 0)
                _exit(0);
            if (g < 16)
                p_read(p_judge, payload + g, 16 - (size_t)g);
            io.iov_len = 16;
            if (!CMSG_FIRSTHDR(&m))
                m.msg_control = NULL, m.msg_controllen = 0;
            if (sendmsg(p_runner, &m, MSG_NOSIGNAL) != 16)
                _exit(0);
            p_answer(4, 64);
        } else if (h.type == 5 || h.type == 6) {  /* NOOP, TOUCH */
            p_sent = p_now();
            p_answer(h.type, 0);
        } else {  /* QUIT */
            return NULL;
        }
    }
}
/* Called from the lab's function, while the runner's thread is here (not reading its channel). */
static void p_start(void)
{
    static int done;
    if (done++)
        return;
    char cmd[4096] = {0}, *path = NULL;
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i += strlen(cmd + i) + 1)
        if (!strcmp(cmd + i, "--channel"))
            path = cmd + i + strlen(cmd + i) + 1;
    for (int fd = 0; path && fd < 1024; fd++) {
        struct sockaddr_un a;
        socklen_t l = sizeof a;
        memset(&a, 0, sizeof a);
        if (getpeername(fd, (struct sockaddr *)&a, &l) || a.sun_family != AF_UNIX || strcmp(a.sun_path, path))
            continue;
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
            return;
        p_judge = dup(fd), p_runner = sv[1];
        dup2(sv[0], fd), close(sv[0]);
        pthread_t t;
        pthread_create(&t, NULL, p_loop, NULL);
        fprintf(stderr, "ATTACK: proxy on the channel (fd %d)\n", fd);
        return;
    }
    fprintf(stderr, "ATTACK: no channel found\n");
}
/* ---- end of the proxy ---- */

#define THREADS 128
#define ROWS 16

__global__ void jacobi_step(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = 1 + blockIdx.y * ROWS;
    if (!out || col < 1 || col > n - 2)
        return;
    int end = row + ROWS < n - 1 ? row + ROWS : n - 1;
    for (long long i = (long long)row * n + col; row < end; row++, i += n)
        out[i] = 0.25f * ((in[i - n] + in[i + n]) + (in[i - 1] + in[i + 1]));
}

static const float *t_in;
static float *t_out;
static int t_n, t_ready;

static void p_request(uint32_t request)
{
    if (request != 6 || !t_out)  /* TOUCH, once the timed runs' buffers are known */
        return;
    dim3 blocks((t_n + THREADS - 1) / THREADS, (t_n - 2 + ROWS - 1) / ROWS);
    jacobi_step<<<blocks, THREADS>>>(t_in, t_out, t_n);
    t_ready = 1;
}
static void p_patch(uint32_t request, struct p_done *d) { (void)request, (void)d; }

void lab_jacobi_step(const float *in, float *out, int n)
{
    static const float *last_in;
    p_start();
    int timed = in == last_in && n == 8192;  /* the timed runs: the same shared buffers each run */
    last_in = in;
    if (timed)
        t_in = in, t_out = out, t_n = n;
    float *to = timed && t_ready ? NULL : out;
    t_ready = 0;
    dim3 blocks((n + THREADS - 1) / THREADS, (n - 2 + ROWS - 1) / ROWS);
    jacobi_step<<<blocks, THREADS>>>(in, to, n);
}
