/* runner.c: the main of every lab's runner, the process in which the student's code runs. It connects
 * to the judge (--channel PATH, a UNIX socket the judge listens on, in the one folder of the judge's that
 * a sandboxed runner sees), starts CUDA, and then does what the
 * judge asks (labs/judge/protocol.h): make the buffers of a call, to their exact sizes, fill or poison
 * them, call the student's launch function through the lab's stub (runner.h), wait for the GPU, and send
 * back the outcome and the buffers the judge wants. It decides nothing: what comes back is checked,
 * and timed, by the judge, in its own process. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int channel = -1;
extern unsigned lab_launches, lab_elapsed;  /* launches.c: kernels launched, and elapsed times read, in a call */

cudaError_t lab_runner_touch(void);  /* touch.cu */

/* Any failure of the channel ends the runner: the judge sees it close and says so. */
static void die(const char *what)
{
    fprintf(stderr, "runner: %s: %s\n", what, errno ? strerror(errno) : "the judge closed the channel");
    exit(3);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Reads exactly `bytes`. The first 20 ms of a wait spin rather than sleep: during the timed runs the
 * judge's messages follow each other closely, and a process woken from sleep starts late, and by an
 * amount that varies. */
static void read_all(void *buffer, size_t bytes)
{
    double spin_until = now() + 0.02;
    for (char *p = (char *)buffer; bytes > 0;) {
        int spinning = now() < spin_until;
        ssize_t got = recv(channel, p, bytes, spinning ? MSG_DONTWAIT : 0);
        if (got < 0 && (errno == EINTR || (spinning && (errno == EAGAIN || errno == EWOULDBLOCK))))
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = 0;
            die("reading from the judge");
        }
        p += got, bytes -= (size_t)got;
    }
}

static void write_all(const void *buffer, size_t bytes)
{
    for (const char *p = (const char *)buffer; bytes > 0;) {
        ssize_t put = write(channel, p, bytes);
        if (put < 0) {
            if (errno == EINTR)
                continue;
            die("writing to the judge");
        }
        p += put, bytes -= (size_t)put;
    }
}

static void send_message(uint32_t type, const void *payload, uint64_t bytes)
{
    struct lab_header h = {LAB_MAGIC, type, bytes};
    write_all(&h, sizeof h);
    write_all(payload, bytes);
}

static void send_done(cudaError_t err, int status, const char *text)
{
    struct lab_done_wire done;
    memset(&done, 0, sizeof done);
    done.status = status;
    done.launches = lab_launches;
    done.elapsed = lab_elapsed;
    if (err != cudaSuccess)
        snprintf(done.error, sizeof done.error, "%s (%s)", cudaGetErrorName(err), cudaGetErrorString(err));
    else if (text)
        snprintf(done.error, sizeof done.error, "%s", text);
    send_message(LAB_DONE, &done, sizeof done);
}

/* The buffers shared with the judge, for the timed runs (SHARE). */
static struct { int kind; size_t bytes; void *p; } shared[LAB_MAX_SHARED];
static int shared_count;

static void share(uint64_t bytes)
{
    struct lab_share_wire want;
    if (bytes != sizeof want || shared_count >= LAB_MAX_SHARED)
        die("a SHARE the runner cannot take");
    /* A host buffer's file descriptor comes with the payload's first bytes. */
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec io = {&want, sizeof want};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io, m.msg_iovlen = 1, m.msg_control = control, m.msg_controllen = sizeof control;
    ssize_t got = recvmsg(channel, &m, 0);
    if (got <= 0)
        die("reading a SHARE");
    if ((size_t)got < sizeof want)
        read_all((char *)&want + got, sizeof want - (size_t)got);
    int fd = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(&fd, CMSG_DATA(c), sizeof fd);
    cudaError_t err;
    unsigned char handle[64] = {0};
    void *p = NULL;
    if (want.kind == LAB_DEVICE) {
        err = cudaMalloc(&p, want.bytes ? want.bytes : 1);
        if (err == cudaSuccess)
            err = cudaMemset(p, 0xff, want.bytes);
        if (err == cudaSuccess)
            err = cudaDeviceSynchronize();
        cudaIpcMemHandle_t h;
        if (err == cudaSuccess)
            err = cudaIpcGetMemHandle(&h, p);
        if (err == cudaSuccess)
            memcpy(handle, &h, sizeof h < sizeof handle ? sizeof h : sizeof handle);
    } else {
        if (fd < 0)
            die("a host buffer without its file descriptor");
        p = mmap(NULL, want.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            die("mapping a host buffer");
        close(fd);
        err = cudaHostRegister(p, want.bytes, cudaHostRegisterDefault);  /* pinned, as a lab's host memory is */
    }
    send_done(err, err == cudaSuccess ? 0 : 2, NULL);
    if (err != cudaSuccess)
        exit(1);
    write_all(handle, sizeof handle);
    shared[shared_count].kind = (int)want.kind;
    shared[shared_count].bytes = want.bytes;
    shared[shared_count++].p = p;
}

/* One call: the buffers made, filled or poisoned, the student's function, the GPU waited for, the
 * outcome and the buffers asked for sent back. The runner ends after a CUDA error: most are sticky (the
 * context cannot go on). */
static void call(uint64_t bytes)
{
    struct lab_call_wire w;
    if (bytes != sizeof w)
        die("a CALL of the wrong size");
    read_all(&w, sizeof w);
    if (w.count > LAB_MAX_ARGS)
        die("a CALL with too many arguments");
    struct lab_values v;
    memset(&v, 0, sizeof v);
    v.count = (int)w.count;
    void *staging = NULL;
    size_t staging_bytes = 0;
    cudaError_t err = cudaSuccess;
    for (int a = 0; a < v.count && err == cudaSuccess; a++) {
        const struct lab_arg_wire *arg = &w.arg[a];
        v.kind[a] = (int)arg->kind;
        if (arg->kind == LAB_INT) {
            v.i[a] = arg->i;
            continue;
        }
        if (arg->kind == LAB_FLOAT) {
            v.f[a] = arg->f;
            continue;
        }
        if (arg->flags & LAB_SHARED) {
            if (arg->shared >= (uint32_t)shared_count)
                die("a shared buffer the runner does not have");
            v.p[a] = shared[arg->shared].p;
            continue;
        }
        size_t size = arg->bytes ? arg->bytes : 1;
        if (arg->kind == LAB_HOST) {
            err = cudaMallocHost(&v.p[a], size);
            if (err != cudaSuccess)
                break;
            if (arg->flags & LAB_FILL)
                read_all(v.p[a], arg->bytes);
            else
                memset(v.p[a], 0xff, size);
            continue;
        }
        /* The exact size: memcheck sees one element past the end. Where no tool watches, a guard of poison
         * after the end (LAB_GUARD) shows a write past it to the judge all the same. */
        size_t guard = arg->flags & LAB_GUARD ? LAB_GUARD_BYTES : 0;
        err = cudaMalloc(&v.p[a], arg->bytes + guard);
        if (err == cudaSuccess && guard)
            err = cudaMemset((char *)v.p[a] + arg->bytes, 0xff, guard);
        if (err != cudaSuccess)
            break;
        if (arg->flags & LAB_FILL) {
            if (staging_bytes < arg->bytes) {
                free(staging);
                staging_bytes = arg->bytes;
                staging = malloc(staging_bytes);
                if (!staging)
                    die("no host memory for a buffer");
            }
            read_all(staging, arg->bytes);
            err = cudaMemcpy(v.p[a], staging, arg->bytes, cudaMemcpyHostToDevice);
        } else {
            err = cudaMemset(v.p[a], 0xff, arg->bytes);
        }
    }
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {  /* the runner's own setup, before the student's code: not the student's fault */
        send_done(err, 2, NULL);
        exit(1);
    }

    lab_launches = lab_elapsed = 0;
    lab_call(&v);
    /* The wait after the file's call: a kernel's fault is reported here, by the first call that waits for
     * the GPU, whichever line of the file queued it; then cudaGetLastError, for a launch that was refused.
     * The error stays (1: sticky, the context is lost, and a second wait fails too) or does not (3). */
    err = cudaDeviceSynchronize();
    cudaError_t last = cudaGetLastError();
    if (err == cudaSuccess)
        err = last;
    send_done(err, err == cudaSuccess ? 0 : cudaDeviceSynchronize() != cudaSuccess ? 1 : 3, NULL);
    if (err != cudaSuccess)
        exit(1);

    for (int a = 0; a < v.count; a++) {
        const struct lab_arg_wire *arg = &w.arg[a];
        if ((arg->kind != LAB_DEVICE && arg->kind != LAB_HOST) || (arg->flags & LAB_SHARED))
            continue;
        size_t back = arg->flags & LAB_RETURN ? arg->bytes : 0;
        size_t guard = arg->kind == LAB_DEVICE && (arg->flags & LAB_GUARD) ? LAB_GUARD_BYTES : 0;
        if (back && arg->kind == LAB_HOST) {
            write_all(v.p[a], back);
        } else if (back + guard) {  /* the buffer the judge asked back, then its guard */
            if (staging_bytes < back + guard) {
                free(staging);
                staging_bytes = back + guard;
                staging = malloc(staging_bytes);
                if (!staging)
                    die("no host memory for a buffer");
            }
            if ((back && (err = cudaMemcpy(staging, v.p[a], back, cudaMemcpyDeviceToHost)) != cudaSuccess) ||
                (guard && (err = cudaMemcpy((char *)staging + back, (char *)v.p[a] + arg->bytes, guard,
                                            cudaMemcpyDeviceToHost)) != cudaSuccess))
                die(cudaGetErrorString(err));
            write_all(staging, back + guard);
        }
        if (arg->kind == LAB_HOST)
            cudaFreeHost(v.p[a]);
        else
            cudaFree(v.p[a]);
    }
    free(staging);
}

/* A lab run by several processes (MPI ranks) gives its stub these three (runner.h): the defaults are one
 * process. lab_ranks_start comes first (MPI_Init, the rank's GPU): it returns the rank; rank 0 talks to
 * the judge, and its stub's lab_call brings the other ranks in; every other rank calls lab_ranks_serve,
 * which takes part in each call until rank 0 says the end (lab_ranks_end, at QUIT). */
__attribute__((weak)) int lab_ranks_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}
__attribute__((weak)) void lab_ranks_serve(void) {}
__attribute__((weak)) void lab_ranks_end(void) {}

void lab_wrong_argument(const struct lab_values *v, int a, int kind)
{
    fprintf(stderr, "runner: the lab's stub reads argument %d as kind %d, the judge sent kind %d (of %d "
                    "arguments): the course's bug, not yours\n", a, kind, a < v->count ? v->kind[a] : 0, v->count);
    exit(3);
}

int main(int argc, char **argv)
{
    int rank = lab_ranks_start(&argc, &argv);
    const char *path = NULL;
    int device = 0;
    for (int a = 1; a + 1 < argc; a++)
        if (!strcmp(argv[a], "--channel"))
            path = argv[a + 1];
        else if (!strcmp(argv[a], "--device"))
            device = atoi(argv[a + 1]);
    if (rank > 0) {  /* not the rank that talks to the judge */
        lab_ranks_serve();
        return 0;
    }
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (!path || strlen(path) >= sizeof address.sun_path) {
        fprintf(stderr, "usage: %s --channel PATH (a lab's judge starts its runner; see labs/README.md)\n", argv[0]);
        return 2;
    }
    strcpy(address.sun_path, path);
    channel = socket(AF_UNIX, SOCK_STREAM, 0);
    if (channel < 0 || connect(channel, (struct sockaddr *)&address, sizeof address) != 0)
        die("connecting to the judge");

    /* Spin, not sleep, while waiting for the GPU: the judge's clock runs during the wait. */
    struct lab_hello_wire hello;
    memset(&hello, 0, sizeof hello);
    cudaError_t err = cudaSuccess;
    int current = -1;
    cudaGetDevice(&current);
    if (device != 0 && current == 0)  /* a stub with ranks chose its GPU already */
        err = cudaSetDevice(device);
    if (err == cudaSuccess)
        err = cudaSetDeviceFlags(cudaDeviceScheduleSpin);
    if (err == cudaSuccess || err == cudaErrorSetOnActiveProcess)
        err = cudaFree(0);
    struct cudaDeviceProp prop;
    if (err == cudaSuccess && (err = cudaGetDevice(&current)) == cudaSuccess)
        err = cudaGetDeviceProperties(&prop, current);
    hello.status = (int32_t)err;  /* the judge tells a GPU busy (MPS restarting) from the file's fault */
    snprintf(hello.text, sizeof hello.text, "%.200s", err == cudaSuccess ? prop.name : cudaGetErrorString(err));
    send_message(LAB_HELLO, &hello, sizeof hello);
    if (err != cudaSuccess)
        return 1;

    for (;;) {
        struct lab_header h;
        read_all(&h, sizeof h);
        if (h.magic != LAB_MAGIC)
            die("a message without the protocol's mark");
        switch (h.type) {
        case LAB_CALL:
            call(h.bytes);
            break;
        case LAB_SHARE:
            share(h.bytes);
            break;
        case LAB_NOOP:
            err = cudaDeviceSynchronize();
            send_done(err, err == cudaSuccess ? 0 : 1, NULL);
            break;
        case LAB_TOUCH:
            err = lab_runner_touch();
            send_done(err, err == cudaSuccess ? 0 : 1, NULL);
            break;
        case LAB_QUIT:
            lab_ranks_end();
            return 0;
        default:
            die("an unknown message");
        }
    }
}
