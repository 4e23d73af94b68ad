/* timed.c: the timed runs of lab.h. The buffers shared with the runner (its device memory opened here
 * through CUDA IPC, or host memory of a memfd it maps), the poison, the samples of the outputs read by the
 * judge's own kernel (sample.cu), and the clock: lab_clock_next's runs, each lab_timed_call timed from the
 * judge's request to the runner's answer, less the same round trip without the call. */
#define _GNU_SOURCE  /* memfd_create, for host memory shared with the runner */
#include "lab_internal.h"

#include <cuda_runtime_api.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

/* ==== Shared buffers ==== */

/* The buffers of the timed runs: device memory the runner allocated (opened here through its IPC
 * handle), or host memory made here (a memfd the runner maps). `p` is the judge's address. */
static struct shared {
    int kind;
    size_t bytes;
    void *p;
} shared[LAB_MAX_SHARED];
static int shared_count;

static void shared_close(void);

/* A failure while setting up the timed runs ends the judge, as a failed check would. */
static void give_up(struct lab *lab)
{
    exit(lab_end(lab));
}

/* Asks the runner to share a buffer: a SHARE message, with a host buffer's file descriptor. */
static void share(struct lab *lab, int kind, size_t bytes, int fd, unsigned char handle[64])
{
    if (shared_count >= LAB_MAX_SHARED) {
        fprintf(stderr, "judge: more than %d shared buffers\n", LAB_MAX_SHARED);
        exit(1);
    }
    if (start_runner(lab))
        give_up(lab);
    lab->at_end = shared_close;
    struct lab_share_wire want = {(uint32_t)kind, 0, bytes};
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec io = {&want, sizeof want};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io, m.msg_iovlen = 1;
    if (fd >= 0) {
        m.msg_control = control, m.msg_controllen = sizeof control;
        struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
        cm->cmsg_level = SOL_SOCKET, cm->cmsg_type = SCM_RIGHTS, cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    }
    if (send_header(lab, LAB_SHARE, sizeof want) || wait_for(lab, lab->runner->channel, POLLOUT))
        give_up(lab);
    ssize_t put = sendmsg(lab->runner->channel, &m, MSG_NOSIGNAL);
    if (put < 0 || ((size_t)put < sizeof want && channel_write(lab, (char *)&want + put, sizeof want - (size_t)put)))
        runner_lost(lab, 1, "making the timed runs' buffers"), give_up(lab);
    if (read_done(lab, "making the timed runs' buffers"))
        give_up(lab);
    int how = channel_read(lab, handle, 64);
    if (how)
        runner_lost(lab, how, "making the timed runs' buffers"), give_up(lab);
}

void *lab_shared(struct lab *lab, size_t bytes)
{
    unsigned char handle[64];
    share(lab, LAB_DEVICE, bytes, -1, handle);
    cudaIpcMemHandle_t h;
    memcpy(&h, handle, sizeof h);
    struct shared *s = &shared[shared_count++];
    s->kind = LAB_DEVICE, s->bytes = bytes;
    CUDA_CHECK(cudaIpcOpenMemHandle(&s->p, h, cudaIpcMemLazyEnablePeerAccess));
    return s->p;
}

void *lab_shared_host(struct lab *lab, size_t bytes)
{
    bytes = bytes ? bytes : 1;
    int fd = memfd_create("lab-shared", MFD_CLOEXEC);
    void *p = MAP_FAILED;
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0 ||
        (p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        perror("judge: shared host memory");
        exit(1);
    }
    memset(p, LAB_POISON_BYTE, bytes);
    unsigned char unused[64];
    share(lab, LAB_HOST, bytes, fd, unused);
    close(fd);
    struct shared *s = &shared[shared_count++];
    s->kind = LAB_HOST, s->bytes = bytes, s->p = p;
    return p;
}

void lab_use(struct lab_call *c, const void *p)
{
    for (int i = 0; i < shared_count; i++)
        if (shared[i].p == p) {
            struct lab_arg_wire *a = next_arg(c, (uint32_t)shared[i].kind);
            a->flags = LAB_SHARED;
            a->shared = (uint32_t)i;
            a->bytes = shared[i].bytes;
            return;
        }
    fprintf(stderr, "judge: lab_use of a buffer lab_shared did not make\n");
    exit(1);
}

/* At the judge's end (lab->at_end, which lab_end calls: lab.c knows nothing of this file): the runner's
 * device memory is let go of here before the runner ends. */
static void shared_close(void)
{
    for (int i = 0; i < shared_count; i++)
        if (shared[i].kind == LAB_DEVICE)
            cudaIpcCloseMemHandle(shared[i].p);
    shared_count = 0;
}

/* ==== The poison ==== */

void *lab_device_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    lab_poison(p, bytes);
    return p;
}

void lab_poison(void *dev, size_t bytes)
{
    for (int i = 0; i < shared_count; i++)
        if (shared[i].p == dev && shared[i].kind == LAB_HOST) {  /* host memory shared with the runner */
            memset(dev, LAB_POISON_BYTE, bytes);
            return;
        }
    CUDA_CHECK(cudaMemset(dev, LAB_POISON_BYTE, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* ==== Samples and the clock ==== */

void lab_sample_add(struct lab_sample *s, long long index)
{
    if (s->extra < (int)(sizeof s->wanted / sizeof s->wanted[0]))
        s->wanted[s->extra++] = index;
}

void lab_sample_draw(struct lab *lab, struct lab_sample *s)
{
    static unsigned long long draws;  /* a new stretch of the seed's stream each time */
    int room = LAB_SAMPLES - s->extra;
    if (s->n <= LAB_SAMPLES) {  /* all of it */
        s->count = (int)s->n;
        for (long long i = 0; i < s->n; i++)
            s->index[i] = i;
    } else {
        /* One index in each of `room` equal stretches: spread over the whole output, and unknown
         * to the runner until its work is done. */
        s->count = room;
        for (int k = 0; k < room; k++) {
            long long first = s->n * k / room, next = s->n * (k + 1) / room;
            s->index[k] = first + (long long)(lab_bits(lab->secret, 99, draws++) % (unsigned long long)(next - first));
        }
        for (int e = 0; e < s->extra; e++)
            s->index[s->count++] = s->wanted[e];
    }
    s->extra = 0;
}

float lab_sample_float(const struct lab_sample *s, int k)
{
    unsigned bits = (unsigned)s->got[k];
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

unsigned lab_sample_uint(const struct lab_sample *s, int k)
{
    return s->size == 1 ? (unsigned)(s->got[k] & 0xff) : (unsigned)s->got[k];
}

/* sample.cu: the judge's kernel that reads the picked elements of device buffers. */
struct lab_pick { const unsigned char *address; int size; };
void lab_pick_on_gpu(const struct lab_pick *device_picks, int count, unsigned long long *device_out,
                     unsigned long long *host_out);

static struct lab_pick *picks, *device_picks;
static unsigned long long *device_got, *host_got;
static int pick_room;

static int is_host(const void *p)
{
    for (int i = 0; i < shared_count; i++)
        if (shared[i].p == p)
            return shared[i].kind == LAB_HOST;
    fprintf(stderr, "judge: a sample of a buffer lab_shared did not make\n");
    exit(1);
}

/* Reads the samples: device buffers by the judge's kernel, host memory directly. */
static void read_samples(struct lab_sample *samples, int count, int device_total)
{
    if (device_total)
        lab_pick_on_gpu(device_picks, device_total, device_got, host_got);
    int d = 0;
    for (int s = 0; s < count; s++) {
        struct lab_sample *x = &samples[s];
        int host = is_host(x->output);
        for (int k = 0; k < x->count; k++) {
            if (host) {
                /* Byte by byte, through volatile: the runner's copies may still be landing. */
                const volatile unsigned char *p = (const volatile unsigned char *)x->output + x->index[k] * x->size;
                unsigned long long v = 0;
                for (int b = x->size - 1; b >= 0; b--)
                    v = v << 8 | p[b];
                x->got[k] = v;
            } else {
                x->got[k] = host_got[d++];
            }
        }
    }
}

/* ==== The judge's own round trip ====
 * What the clock subtracts is the runner's empty round trip (NOOP): the request, the runner's wake-up, its
 * wait for an idle GPU, the answer. A file in the runner's process can delay it (a thread between the
 * runner and its socket: an attacker's ch5_tiled of 2026-11-27 made a slow product pass as fast so), so
 * what is subtracted is at most twice a round trip the judge measures to a thread of its own over a socket
 * pair, the same wake-up, plus 10 us for the runner's wait on an idle GPU. */
static void *echo(void *arg)
{
    int fd = *(const int *)arg;
    char c;
    while (read(fd, &c, 1) == 1 && c)
        if (write(fd, &c, 1) != 1)
            break;
    return NULL;
}

static double own_round_trip_ms(void)
{
    int fds[2];
    pthread_t thread;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return 0;
    if (pthread_create(&thread, NULL, echo, &fds[1])) {
        close(fds[0]), close(fds[1]);
        return 0;
    }
    enum { PINGS = 21 };
    double ms[PINGS];
    int done = 0;
    for (char c = 1; done < PINGS; done++) {
        double t0 = wall_seconds();
        if (write(fds[0], &c, 1) != 1 || read(fds[0], &c, 1) != 1)
            break;
        ms[done] = (wall_seconds() - t0) * 1e3;
    }
    char stop = 0;
    if (write(fds[0], &stop, 1) != 1)
        shutdown(fds[0], SHUT_RDWR);  /* (the thread's read then ends) */
    pthread_join(thread, NULL);
    close(fds[0]), close(fds[1]);
    return done < PINGS ? 0 : stats_of(ms, PINGS).median;
}

void lab_clock_start(struct lab *lab, struct lab_clock *clock, int reps)
{
    (void)lab;
    clock->own_ms = own_round_trip_ms();
    clock->reps = reps;
    clock->run = -2;
    clock->call_ms = (double *)host_alloc(reps * sizeof(double));
    clock->round_trip_ms = (double *)host_alloc(reps * sizeof(double));
    clock->touch_ms = (double *)host_alloc(reps * sizeof(double));
    clock->late = NULL, clock->late_arg = NULL;
}

int lab_clock_next(struct lab_clock *clock)
{
    return ++clock->run < clock->reps;
}

int lab_timed_call(struct lab *lab, struct lab_clock *clock, const struct lab_call *c, struct lab_sample *samples,
                   int count)
{
    int run = clock->run;
    if (start_runner(lab))
        return 1;
    /* Outside the clock: the picks of the device samples, on the GPU; the judge's own work done. */
    int device_total = 0;
    for (int s = 0; s < count; s++)
        if (!is_host(samples[s].output))
            device_total += samples[s].count;
    if (device_total > pick_room) {
        free(picks), free(host_got);
        if (device_picks)
            CUDA_CHECK(cudaFree(device_picks)), CUDA_CHECK(cudaFree(device_got));
        pick_room = device_total;
        picks = (struct lab_pick *)host_alloc(pick_room * sizeof *picks);
        host_got = (unsigned long long *)host_alloc(pick_room * sizeof *host_got);
        device_picks = (struct lab_pick *)lab_device_alloc(pick_room * sizeof *picks);
        device_got = (unsigned long long *)lab_device_alloc(pick_room * sizeof *host_got);
    }
    int d = 0;
    for (int s = 0; s < count; s++)
        if (!is_host(samples[s].output))
            for (int k = 0; k < samples[s].count; k++) {
                picks[d].address = (const unsigned char *)samples[s].output + samples[s].index[k] * samples[s].size;
                picks[d++].size = samples[s].size;
            }
    if (device_total)
        CUDA_CHECK(cudaMemcpy(device_picks, picks, device_total * sizeof *picks, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());

    struct lab_call_wire w;
    memset(&w, 0, sizeof w);
    w.count = (uint32_t)c->count;
    memcpy(w.arg, c->arg, c->count * sizeof w.arg[0]);
    for (int a = 0; a < c->count; a++)
        if ((c->arg[a].kind == LAB_DEVICE || c->arg[a].kind == LAB_HOST) && !(c->arg[a].flags & LAB_SHARED)) {
            fprintf(stderr, "judge: a timed call's buffers must be shared (lab_use)\n");
            exit(1);
        }

    /* The GPU is made to work for the runner's process first (its own empty kernel): without MPS, the
     * GPU switches between processes, and the switch from the judge's work above is not the call's. */
    lab->spin = 1;
    double t0 = wall_seconds();
    if (send_header(lab, LAB_TOUCH, 0) || read_done(lab, "answering the judge"))
        return lab->spin = 0, 1;
    double touch = (wall_seconds() - t0) * 1e3;
    /* The round trip alone: the request, the runner's wait for an idle GPU, the answer. */
    t0 = wall_seconds();
    if (send_header(lab, LAB_NOOP, 0) || read_done(lab, "answering the judge"))
        return lab->spin = 0, 1;
    double round_trip = (wall_seconds() - t0) * 1e3;
    if (clock->late)
        clock->late(clock->late_arg);
    /* The call: from the request to the answer that its work is done. The samples are read right
     * after, by the judge: an answer sent before the work was done would show wrong outputs. */
    t0 = wall_seconds();
    if (send_header(lab, LAB_CALL, sizeof w) || channel_write(lab, &w, sizeof w))
        return lab->spin = 0, runner_lost(lab, 1, "receiving a timed call");
    if (read_done(lab, "running your code (timed)"))
        return lab->spin = 0, 1;
    double call = (wall_seconds() - t0) * 1e3;
    lab->spin = 0;
    read_samples(samples, count, device_total);
    if (run >= 0 && run < clock->reps) {
        clock->call_ms[run] = call;
        clock->round_trip_ms[run] = round_trip;
        clock->touch_ms[run] = touch;
    } else if (run < 0) {
        say_runs_take(call, clock->reps);
    }
    return 0;
}

/* What the TOUCH may take beyond the empty round trip's bound: the GPU's switch from the judge's process
 * to the runner's, and an empty kernel (on a quiet H200, 2026-11-28: TOUCH 0.161-0.168 ms against an empty
 * round trip of 0.009 ms, the judge's own 0.012-0.014 ms). More is work the runner did outside the call,
 * counted in it. */
#define TOUCH_SWITCH_MS 0.2

/* The part of a TOUCH or NOOP beyond what it may take: work the runner did before the call (a thread of the
 * file's that computes as the inputs land or when the TOUCH comes, answering late), counted in the call. */
static double beyond(double ms, double allowed)
{
    return allowed > 0 && ms > allowed ? ms - allowed : 0;
}

struct stats lab_clock_stats(struct lab *lab, struct lab_clock *clock)
{
    double round_trip = stats_of(clock->round_trip_ms, clock->reps).median;
    double bound = clock->own_ms > 0 ? 2 * clock->own_ms + 0.010 : 0;
    if (bound > 0 && round_trip > bound) {
        printf("  the runner's empty round trip, %.3f ms, is more than the judge's own (%.3f ms) allows: %.3f ms "
               "subtracted\n", round_trip, clock->own_ms, bound);
        round_trip = bound;
    }
    printf("judge-own-round-trip-ms %.6g\n", clock->own_ms);
    printf("judge-touch-ms %.6g\n", stats_of(clock->touch_ms, clock->reps).median);
    /* Each run: its call, less the round trip, plus what its two messages before it took beyond theirs. */
    double *ms = (double *)host_alloc(clock->reps * sizeof(double));
    double *outside = (double *)host_alloc(clock->reps * sizeof(double));
    for (int r = 0; r < clock->reps; r++) {
        outside[r] = beyond(clock->touch_ms[r], bound > 0 ? bound + TOUCH_SWITCH_MS : 0) +
                     beyond(clock->round_trip_ms[r], bound);
        ms[r] = clock->call_ms[r] - round_trip + outside[r];
    }
    double outside_ms = stats_of(outside, clock->reps).median, call_ms = stats_of(clock->call_ms, clock->reps).median;
    free(outside);
    printf("judge-outside-ms %.6g\n", outside_ms);
    if (outside_ms > 0.05)  /* (50 us a run or less: the wake-ups' noise) */
        printf("  the judge's two messages before each call took %.3f ms a run (median) beyond what they may take (the "
               "GPU's switch to your process, %.1f ms, and the empty round trip): counted in the call, as work done "
               "before it would be\n", outside_ms, TOUCH_SWITCH_MS);
    /* Over 0.1 ms, and more than the call: the work was done before the call, not in it (its time is counted
     * all the same; a file that did less of it there gains nothing, and is graded on that time). */
    if (outside_ms > 0.1 && outside_ms > call_ms) {
        printf("  FAIL: your process took %.3f ms a run beyond their allowance to answer the judge's messages before "
               "the timed call, more than the call took (%.3f ms): work done before the call (a thread that computes "
               "when the messages come or as the inputs land), or answers held back\n", outside_ms, call_ms);
        printf("judge-failure outside\n");
        lab->failures++;
    }
    struct stats s = stats_of(ms, clock->reps);
    printf("  timed by the judge: from its request to the runner's answer that the work is done, less the same "
           "round trip without the call (%.3f ms, median of %d)\n", round_trip, clock->reps);
    printf("judge-round-trip-ms %.6g\n", round_trip);
    free(ms);
    free(clock->call_ms), free(clock->round_trip_ms), free(clock->touch_ms);
    return s;
}
