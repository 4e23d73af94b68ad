/* lab.c: see lab.h. The judge's side of labs/judge/protocol.h: the runner's process (started, talked
 * to with a deadline, its output relayed, stopped), the calls, the shared buffers and the clock of the
 * timed runs, the checks, the hints and the report. */
#define _GNU_SOURCE  /* memfd_create, for host memory shared with the runner */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ==== The runner's process ==== */

struct lab_runner {
    pid_t pid;
    int channel;      /* the connected socket */
    int output;       /* the read end of the runner's stdout and stderr */
    char dir[64];     /* a private folder holding the socket */
    char partial[512];  /* an output line not yet ended */
    int partial_bytes;
};

static struct lab_runner the_runner = {0, -1, -1, "", "", 0};
static int relayed_lines;
enum { RELAYED_MAX = 40 };

/* Printable characters only: what the runner prints cannot move the cursor or pass for a judge line. */
static void relay_line(const char *text, int bytes)
{
    if (relayed_lines++ == RELAYED_MAX)
        printf("  | (the rest of what your code printed is left out)\n");
    if (relayed_lines > RELAYED_MAX)
        return;
    printf("  | ");
    for (int i = 0; i < bytes; i++)
        putchar(text[i] >= 32 && text[i] < 127 ? text[i] : '?');
    putchar('\n');
}

/* A text the runner sent (a CUDA error's name): one line of printable characters, ended. */
static const char *printable(char *text, size_t size)
{
    text[size - 1] = '\0';
    for (char *c = text; *c; c++)
        if (*c < 32 || *c >= 127)
            *c = '?';
    return text;
}

static void relay_output(struct lab_runner *r, int flush)
{
    char chunk[4096];
    ssize_t got;
    while (r->output >= 0 && (got = read(r->output, chunk, sizeof chunk)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break;  /* EAGAIN: nothing more now */
        }
        for (ssize_t i = 0; i < got; i++) {
            if (chunk[i] == '\n' || r->partial_bytes == (int)sizeof r->partial) {
                relay_line(r->partial, r->partial_bytes);
                r->partial_bytes = 0;
                if (chunk[i] == '\n')
                    continue;
            }
            r->partial[r->partial_bytes++] = chunk[i];
        }
    }
    if (flush && r->partial_bytes) {
        relay_line(r->partial, r->partial_bytes);
        r->partial_bytes = 0;
    }
    fflush(stdout);
}

/* Waits up to `seconds` for the runner to end, then kills it: 1 with its status, 0 if it was killed. */
static int reap(struct lab_runner *r, int *status, double seconds)
{
    double until = wall_seconds() + seconds;
    while (r->pid > 0) {
        pid_t done = waitpid(r->pid, status, WNOHANG);
        if (done == r->pid || (done < 0 && errno != EINTR)) {
            r->pid = 0;
            return done > 0;
        }
        if (wall_seconds() > until) {
            kill(-r->pid, SIGKILL);
            waitpid(r->pid, status, 0);
            r->pid = 0;
            return 0;
        }
        usleep(2000);
    }
    return 0;
}

/* Ends the runner: it has `grace` seconds to end by itself (a sanitizer writing its report), then it
 * and its process group are killed. */
static void stop_runner(struct lab_runner *r, double grace)
{
    int status;
    if (r->pid > 0 && reap(r, &status, grace) && WIFEXITED(status))
        printf("judge-runner-exit %d\n", WEXITSTATUS(status));  /* a sanitizer's verdict, for labs/grade */
    if (r->channel >= 0)
        close(r->channel);
    if (r->output >= 0) {
        relay_output(r, 1);
        close(r->output);
    }
    r->channel = r->output = -1;
    if (r->dir[0]) {
        char path[96];
        snprintf(path, sizeof path, "%s/channel", r->dir);
        unlink(path);
        rmdir(r->dir);
        r->dir[0] = '\0';
    }
}

static void stop_at_exit(void)
{
    stop_runner(&the_runner, 0);
}

static void stop_on_signal(int sig)
{
    if (the_runner.pid > 0)
        kill(-the_runner.pid, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The time a runner that is ending by itself may take: a sanitizer writes its report then. */
static double grace(const struct lab *lab)
{
    double left = lab->deadline - wall_seconds();
    return left < 0 ? 0 : left < 20 ? left : 20;
}

/* Why the runner is gone: its exit status or signal, said once. */
static void say_runner_ended(struct lab *lab, const char *doing)
{
    struct lab_runner *r = lab->runner;
    int status = 0;
    relay_output(r, 1);
    if (reap(r, &status, grace(lab))) {
        if (WIFSIGNALED(status))
            printf("  your program was killed by signal %d (%s) while %s\n", WTERMSIG(status),
                   strsignal(WTERMSIG(status)), doing);
        else
            printf("  your program ended with exit %d while %s (it must return from the lab's function)\n",
                   WEXITSTATUS(status), doing);
    } else {
        printf("  your program stopped answering while %s\n", doing);
    }
    printf("judge-failure crash\n");
    stop_runner(r, 0);
    lab->failures++;
}

static void say_over_time(struct lab *lab, const char *doing)
{
    printf("  your program took over %d s while %s: stopped (a kernel that never ends? a loop whose index never "
           "reaches its end, or a thread waiting for one that never comes)\n", lab->timeout, doing);
    printf("judge-failure timeout %d\n", lab->timeout);
    stop_runner(lab->runner, 0);
    lab->failures++;
}

/* Waits until fd can be read (or written), relaying the runner's output meanwhile. 0, or -1: the
 * deadline passed (or poll failed). During the timed runs (lab->spin) it spins instead of sleeping: a
 * process woken from sleep starts late, by an amount that varies, and the judge's clock is running. */
static int wait_for(struct lab *lab, int fd, short events)
{
    struct lab_runner *r = lab->runner;
    for (;;) {
        double left = lab->deadline - wall_seconds();
        if (left <= 0)
            return -1;
        struct pollfd p[2] = {{fd, events, 0}, {r->output, POLLIN, 0}};
        int n = poll(p, r->output >= 0 ? 2 : 1, lab->spin ? 0 : (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR)
            return -1;
        if (n > 0 && r->output >= 0 && (p[1].revents & (POLLIN | POLLHUP)))
            relay_output(r, 0);
        if (n > 0 && p[0].revents)
            return 0;
    }
}

/* 0: done; 1: the runner closed the channel; 2: the deadline passed. */
static int channel_read(struct lab *lab, void *buffer, size_t bytes)
{
    for (char *p = (char *)buffer; bytes > 0;) {
        if (wait_for(lab, lab->runner->channel, POLLIN))
            return 2;
        ssize_t got = read(lab->runner->channel, p, bytes);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return 1;
        p += got, bytes -= (size_t)got;
    }
    return 0;
}

static int channel_write(struct lab *lab, const void *buffer, size_t bytes)
{
    for (const char *p = (const char *)buffer; bytes > 0;) {
        if (wait_for(lab, lab->runner->channel, POLLOUT))
            return 2;
        ssize_t put = send(lab->runner->channel, p, bytes, MSG_NOSIGNAL);
        if (put < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (put <= 0)
            return 1;
        p += put, bytes -= (size_t)put;
    }
    return 0;
}

/* After a failed read or write: the runner is gone or late. Always 1. */
static int runner_lost(struct lab *lab, int how, const char *doing)
{
    if (how == 2)
        say_over_time(lab, doing);
    else
        say_runner_ended(lab, doing);
    return 1;
}

static int send_header(struct lab *lab, uint32_t type, uint64_t bytes)
{
    struct lab_header h = {LAB_MAGIC, type, bytes};
    return channel_write(lab, &h, sizeof h);
}

/* Reads the header of the message the runner sends next, which must be of `type`. */
static int expect(struct lab *lab, uint32_t type, uint64_t bytes, const char *doing)
{
    struct lab_header h;
    int how = channel_read(lab, &h, sizeof h);
    if (how)
        return runner_lost(lab, how, doing);
    if (h.magic != LAB_MAGIC || h.type != type || h.bytes != bytes) {
        printf("  the runner sent a message the judge did not expect while %s\n", doing);
        printf("judge-failure crash\n");
        stop_runner(lab->runner, 0);
        lab->failures++;
        return 1;
    }
    return 0;
}

/* Starts the runner: a private folder with a socket in it, the runner's command line with
 * "--channel PATH --device N" added, its output into a pipe; then its HELLO. 1 if it did not start. */
/* CUDA errors that say the GPU could not take one more process just then, whatever that process is. */
static int gpu_was_busy(int error)
{
    switch (error) {
    case cudaErrorDevicesUnavailable: case cudaErrorMpsConnectionFailed: case cudaErrorMpsRpcFailure:
    case cudaErrorMpsServerNotReady: case cudaErrorMpsMaxClientsReached: case cudaErrorMpsMaxConnectionsReached:
    case cudaErrorMpsClientTerminated:
        return 1;
    }
    return 0;
}

static int start_runner(struct lab *lab)
{
    struct lab_runner *r = lab->runner;
    if (r->pid > 0)
        return 0;
    if (lab->deadline == 0)  /* LAB_TIMEOUT counts the runner's time, from its first start */
        lab->deadline = wall_seconds() + lab->timeout;
    snprintf(r->dir, sizeof r->dir, "/tmp/lab-judge.XXXXXX");  /* a socket's path is short */
    if (!mkdtemp(r->dir)) {
        perror("judge: mkdtemp");
        exit(1);
    }
    char path[96], device[16];
    snprintf(path, sizeof path, "%s/channel", r->dir);
    snprintf(device, sizeof device, "%d", lab->dev.id);
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), pipe_fds[2];
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0 ||
        pipe2(pipe_fds, O_CLOEXEC) != 0) {
        perror("judge: the runner's channel");
        exit(1);
    }
    int argc = 0;
    while (lab->runner_argv[argc])
        argc++;
    char **argv = (char **)host_alloc((argc + 5) * sizeof *argv);
    memcpy(argv, lab->runner_argv, argc * sizeof *argv);
    argv[argc] = (char *)"--channel", argv[argc + 1] = path, argv[argc + 2] = (char *)"--device";
    argv[argc + 3] = device, argv[argc + 4] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("judge: fork");
        exit(1);
    }
    if (pid == 0) {  /* the runner: its own process group, stdin empty, stdout and stderr to the judge */
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(pipe_fds[1], 1);
        dup2(pipe_fds[1], 2);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(argv);
    setpgid(pid, pid);
    close(pipe_fds[1]);
    r->pid = pid;
    r->output = pipe_fds[0];
    fcntl(r->output, F_SETFL, O_NONBLOCK);
    /* Accept, with the deadline; a runner that ends first is said so. */
    for (;;) {
        double left = lab->deadline - wall_seconds();
        if (left <= 0) {
            close(listener);
            say_over_time(lab, "starting");
            return 1;
        }
        struct pollfd p[2] = {{listener, POLLIN, 0}, {r->output, POLLIN, 0}};
        int n = poll(p, 2, left > 0.1 ? 100 : (int)(left * 1000) + 1);
        if (n > 0 && (p[1].revents & (POLLIN | POLLHUP)))
            relay_output(r, 0);
        if (n > 0 && (p[0].revents & POLLIN)) {
            r->channel = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
            if (r->channel >= 0)
                break;
        }
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
            close(listener);
            return runner_lost(lab, 1, "starting");
        }
    }
    close(listener);
    struct lab_hello_wire hello;
    if (expect(lab, LAB_HELLO, sizeof hello, "starting"))
        return 1;
    int how = channel_read(lab, &hello, sizeof hello);
    if (how)
        return runner_lost(lab, how, "starting");
    if (hello.status != 0) {
        printf("  your program could not start CUDA: %s\n", printable(hello.text, sizeof hello.text));
        /* The judge got the GPU, the runner did not: the GPU was busy, not the file wrong (on a GPU shared
         * through MPS, another process's fault makes the server refuse clients for a moment). */
        printf("judge-failure %s\n", gpu_was_busy(hello.status) ? "gpu-busy" : "cuda");
        stop_runner(r, grace(lab));
        lab->failures++;
        return 1;
    }
    return 0;
}

/* ==== Options, the device ==== */

void lab_start(struct lab *lab, int argc, char **argv, const char *title, int *reps)
{
    memset(lab, 0, sizeof *lab);
    lab->runner = &the_runner;
    /* Everything after "--" is the runner's command line: a sanitizer's, then the runner's own. */
    int own = argc;
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--")) {
            own = a;
            break;
        }
    const char *seed = NULL;
    lab->timeout = 60;
    lab->ranks = 1;
    struct cli_option options[] = {
        {"-r", CLI_INT, reps, 1, 10000, "timed runs"},
        {"--small", CLI_FLAG, &lab->small, 0, 0, "the small sizes only, no timing (for compute-sanitizer)"},
        {"--time", CLI_FLAG, &lab->time, 0, 0, "the timed runs only (each checked on a sample of its output)"},
        {"--seed", CLI_STRING, &seed, 0, 0, "the seed every input comes from (default: a new one)"},
        {"--timeout", CLI_INT, &lab->timeout, 1, 86400, "seconds the runner may take in all (60)"},
        {"--ranks", CLI_INT, &lab->ranks, 1, 64, "the runner's MPI processes, for a lab of several ranks (1)"},
    };
    int device = cli_parse(own, argv, title, options, COUNT_OF(options));
    if (own >= argc - 1) {
        fprintf(stderr, "%s: no runner: %s [options] -- RUNNER (labs/grade starts the judge)\n", argv[0], argv[0]);
        exit(2);
    }
    lab->runner_argv = argv + own + 1;
    if (seed) {
        char *end = NULL;
        errno = 0;
        lab->seed = strtoull(seed, &end, 10);
        if (!isdigit((unsigned char)seed[0]) || *end || errno) {
            fprintf(stderr, "%s: option --seed: '%s' is not a whole number\n", argv[0], seed);
            exit(2);
        }
    }
    FILE *f = fopen("/dev/urandom", "rb");
    unsigned long long fresh[2];
    if (!f || fread(fresh, sizeof fresh, 1, f) != 1) {
        fresh[0] = (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 32;
        fresh[1] = lab_bits(fresh[0] ^ (unsigned long long)clock(), 7, 0);
    }
    if (f)
        fclose(f);
    if (!seed)
        lab->seed = fresh[0] % 1000000000000ULL;  /* twelve digits: easy to copy from the report */
    lab->secret = fresh[1];
    /* Nothing of the judge can be read or traced by another process of this user (the runner is one):
     * its memory, its open files, its output. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    atexit(stop_at_exit);
    signal(SIGTERM, stop_on_signal);
    signal(SIGINT, stop_on_signal);
    signal(SIGHUP, stop_on_signal);
    signal(SIGPIPE, SIG_IGN);
    cudaSetDeviceFlags(cudaDeviceScheduleSpin);  /* the judge's clock waits on the GPU too */
    device_start(device, &lab->dev);
    printf("%s\n", title);
    printf("judge-seed %llu\n", lab->seed);
}

int lab_skip(const struct lab *lab, long long elements)
{
    return lab->small && elements > LAB_SMALL_ELEMENTS;
}

/* ==== Calls ==== */

static struct lab_arg_wire *next_arg(struct lab_call *c, uint32_t kind)
{
    if (c->count >= LAB_MAX_ARGS) {
        fprintf(stderr, "judge: more than %d arguments\n", LAB_MAX_ARGS);
        exit(1);
    }
    c->in[c->count] = NULL;
    c->out[c->count] = NULL;
    struct lab_arg_wire *a = &c->arg[c->count++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return a;
}

void lab_call_start(struct lab_call *c)
{
    memset(c, 0, sizeof *c);
}

void lab_int(struct lab_call *c, long long value)
{
    next_arg(c, LAB_INT)->i = value;
}

void lab_float(struct lab_call *c, double value)
{
    next_arg(c, LAB_FLOAT)->f = value;
}

static void buffer(struct lab_call *c, uint32_t kind, const void *in, void *got, size_t bytes)
{
    struct lab_arg_wire *a = next_arg(c, kind);
    a->bytes = bytes;
    a->flags = (in ? LAB_FILL : 0) | (got ? LAB_RETURN : 0);
    c->in[c->count - 1] = in;
    c->out[c->count - 1] = got;
}

void lab_in(struct lab_call *c, const void *host, size_t bytes) { buffer(c, LAB_DEVICE, host, NULL, bytes); }
void lab_out(struct lab_call *c, const void *in, void *got, size_t bytes) { buffer(c, LAB_DEVICE, in, got, bytes); }
void lab_scratch(struct lab_call *c, size_t bytes) { buffer(c, LAB_DEVICE, NULL, NULL, bytes); }
void lab_host_in(struct lab_call *c, const void *host, size_t bytes) { buffer(c, LAB_HOST, host, NULL, bytes); }
void lab_host_out(struct lab_call *c, void *got, size_t bytes) { buffer(c, LAB_HOST, NULL, got, bytes); }

/* The outcome of a call: 0, or 1 after saying why (a CUDA error in the student's code, or the runner's
 * own trouble). */
static int read_done(struct lab *lab, const char *doing)
{
    struct lab_done_wire done;
    if (expect(lab, LAB_DONE, sizeof done, doing))
        return 1;
    int how = channel_read(lab, &done, sizeof done);
    if (how)
        return runner_lost(lab, how, doing);
    if (done.status == 0)
        return 0;
    printable(done.error, sizeof done.error);
    relay_output(lab->runner, 1);
    if (done.status == 1) {
        printf("  a CUDA error after your code ran: %s\n", done.error);
        printf("  (a kernel read or wrote memory it does not own, or a launch failed: compute-sanitizer's memcheck, "
               "step 2, says which line)\n");
        printf("judge-failure cuda\n");
    } else {
        printf("  the runner could not prepare the call: %s\n", done.error);
        printf("judge-failure runner\n");
    }
    stop_runner(lab->runner, grace(lab));  /* it ends by itself after a CUDA error */
    lab->failures++;
    return 1;
}

int lab_run(struct lab *lab, const struct lab_call *c)
{
    if (start_runner(lab))
        return 1;
    struct lab_call_wire w;
    memset(&w, 0, sizeof w);
    w.count = (uint32_t)c->count;
    memcpy(w.arg, c->arg, c->count * sizeof w.arg[0]);
    if (send_header(lab, LAB_CALL, sizeof w) || channel_write(lab, &w, sizeof w))
        return runner_lost(lab, 1, "receiving a call");
    for (int a = 0; a < c->count; a++)
        if ((c->arg[a].flags & LAB_FILL) && !(c->arg[a].flags & LAB_SHARED)) {
            int how = channel_write(lab, c->in[a], c->arg[a].bytes);
            if (how)
                return runner_lost(lab, how, "receiving a call's inputs");
        }
    if (read_done(lab, "running your code"))
        return 1;
    for (int a = 0; a < c->count; a++)
        if ((c->arg[a].flags & LAB_RETURN) && !(c->arg[a].flags & LAB_SHARED)) {
            int how = channel_read(lab, c->out[a], c->arg[a].bytes);
            if (how)
                return runner_lost(lab, how, "sending its outputs back");
        }
    relay_output(lab->runner, 0);
    return 0;
}

/* ==== Shared buffers ==== */

/* The buffers of the timed runs: device memory the runner allocated (opened here through its IPC
 * handle), or host memory made here (a memfd the runner maps). `p` is the judge's address. */
static struct shared {
    int kind;
    size_t bytes;
    void *p;
} shared[LAB_MAX_SHARED];
static int shared_count;

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

void lab_clock_start(struct lab *lab, struct lab_clock *clock, int reps)
{
    (void)lab;
    clock->reps = reps;
    clock->run = -2;
    clock->call_ms = (double *)host_alloc(reps * sizeof(double));
    clock->round_trip_ms = (double *)host_alloc(reps * sizeof(double));
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
    if (send_header(lab, LAB_TOUCH, 0) || read_done(lab, "answering the judge"))
        return lab->spin = 0, 1;
    /* The round trip alone: the request, the runner's wait for an idle GPU, the answer. */
    double t0 = wall_seconds();
    if (send_header(lab, LAB_NOOP, 0) || read_done(lab, "answering the judge"))
        return lab->spin = 0, 1;
    double round_trip = (wall_seconds() - t0) * 1e3;
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
    } else if (run < 0) {
        say_runs_take(call, clock->reps);
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats lab_clock_stats(struct lab *lab, struct lab_clock *clock)
{
    (void)lab;
    double *sorted = (double *)host_alloc(clock->reps * sizeof(double));
    memcpy(sorted, clock->round_trip_ms, clock->reps * sizeof(double));
    qsort(sorted, clock->reps, sizeof(double), by_value);
    double round_trip = clock->reps % 2 ? sorted[clock->reps / 2]
                                        : 0.5 * (sorted[clock->reps / 2 - 1] + sorted[clock->reps / 2]);
    for (int r = 0; r < clock->reps; r++)
        sorted[r] = clock->call_ms[r] - round_trip;
    struct stats s = stats_of(sorted, clock->reps);
    printf("  timed by the judge: from its request to the runner's answer that the work is done, less the same "
           "round trip without the call (%.3f ms, median of %d)\n", round_trip, clock->reps);
    printf("judge-round-trip-ms %.6g\n", round_trip);
    free(sorted);
    free(clock->call_ms), free(clock->round_trip_ms);
    return s;
}

/* ==== Checks, hints, the report ==== */

/* "element 5" or "element (row 2, column 7)". */
static void say_where(char *text, size_t size, long long i, long long cols)
{
    if (cols > 0)
        snprintf(text, size, "element (row %lld, column %lld)", i / cols, i % cols);
    else
        snprintf(text, size, "element %lld", i);
}

/* After a failed check: what the wrong elements have in common, when it is a known signature. */
static void hint_pattern(struct lab *lab, long long first, long long wrong, long long poisoned, long long n)
{
    if (poisoned == wrong)
        lab_hint(lab, "every wrong element still holds the poison the output was filled with: no thread wrote "
                      "it. Do your threads (or your loop) reach every index up to n - 1?");
    else if (n > 64 && first > 0 && first >= n - n / 8 - 32)  /* in 64 elements or fewer, all is tail */
        lab_hint(lab, "only the last elements are wrong (from %lld of %lld): look at the tail, the part of n "
                      "that is not a whole number of blocks or tiles", first, n);
    else if (wrong == n - 1 && first == 1)
        lab_hint(lab, "only the first element is right: did every result come from the first block's, or the "
                      "first thread's, work?");
}

/* The checks: got against want, element by element. `at`, when given, is where each element sits in an
 * output of `size` elements (a timed run's sample): the report names that position. */
static int compare(struct lab *lab, const char *what, const float *got_f, const float *want_f, const unsigned *got_u,
                 const unsigned *want_u, long long n, const long long *at, long long size, long long cols,
                 double tolerance, const char *why)
{
    long long wrong = 0, first = -1, poisoned = 0;
    for (long long i = 0; i < n; i++) {
        int bad;
        if (got_f) {
            double error = fabs((double)got_f[i] - want_f[i]);
            bad = !(error <= tolerance * fabs((double)want_f[i]));  /* NaN is wrong */
            poisoned += bad && isnan(got_f[i]);
        } else {
            bad = got_u[i] != want_u[i];
            poisoned += bad && got_u[i] == 0xffffffffu;
        }
        if (bad && first < 0)
            first = i;
        wrong += bad;
    }
    const char *of = at ? "sampled elements" : "elements";
    if (!wrong) {
        if (!lab->quiet) {
            if (got_f)
                printf("  %s: PASS (every element within %.1e, relative)\n", what, tolerance);
            else
                printf("  %s: PASS (every element exact)\n", what);
        }
        return 0;
    }
    if (lab->failures >= 3) {  /* three full reports say enough; the rest in a line each */
        printf("  %s: FAIL, %lld of %lld %s wrong\n", what, wrong, n, of);
        lab->failures++;
        return 1;
    }
    char where[96];
    say_where(where, sizeof where, at ? at[first] : first, cols);
    if (got_f)
        printf("  %s: FAIL, %lld of %lld %s wrong; first: %s, expected %.9g, got %.9g\n"
               "    (tolerance %.1e relative: %s)\n", what, wrong, n, of, where, want_f[first], got_f[first], tolerance, why);
    else
        printf("  %s: FAIL, %lld of %lld %s wrong; first: %s, expected %u, got %u (integers: exact)\n", what, wrong, n,
               of, where, want_u[first], got_u[first]);
    if (!at)
        hint_pattern(lab, first, wrong, poisoned, n);
    else if (poisoned == wrong)
        lab_hint(lab, "every wrong element of this timed run still holds the poison the judge filled the output with: "
                      "no thread wrote it this time");
    (void)size;
    lab->failures++;
    return 1;
}

int lab_check_floats(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                     long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, n, NULL, n, cols, tolerance, why);
}

int lab_check_uints(struct lab *lab, const char *what, const unsigned *got, const unsigned *want, long long n,
                    long long cols)
{
    return compare(lab, what, NULL, NULL, got, want, n, NULL, n, cols, 0, NULL);
}

int lab_check_floats_at(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                        const long long *at, long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, n, at, n, cols, tolerance, why);
}

int lab_check_sample_floats(struct lab *lab, const char *what, const struct lab_sample *s, const float *got,
                            const float *want, long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, s->count, s->index, s->n, cols, tolerance, why);
}

int lab_check_sample_uints(struct lab *lab, const char *what, const struct lab_sample *s, const unsigned *got,
                           const unsigned *want, long long cols)
{
    return compare(lab, what, NULL, NULL, got, want, s->count, s->index, s->n, cols, 0, NULL);
}

void lab_hint(struct lab *lab, const char *fmt, ...)
{
    if (lab->hinted >= 2)  /* the first signatures are the telling ones */
        return;
    for (int k = 0; k < lab->hinted; k++)
        if (lab->said[k] == fmt)  /* the same signature at the next size: said already */
            return;
    lab->said[lab->hinted++] = fmt;
    va_list args;
    va_start(args, fmt);
    printf("  hint: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

int lab_same_twice(struct lab *lab, const void *first, const void *second, size_t bytes)
{
    if (memcmp(first, second, bytes) == 0)
        return 1;
    lab_hint(lab, "two runs on the same data gave different results: a race (a missing __syncthreads(), or "
                  "a += on memory other threads write, that should be an atomicAdd)");
    return 0;
}

/* The timed line, then the lines labs/grade reads: the median, the percentage of the limit and the
 * limit's name. (A hand-out's target, a share of the limit, is labs/targets.txt's.) */
void lab_report(struct lab *lab, struct stats ms, double amount, const char *unit, double limit,
                const char *limit_name)
{
    if (strcmp(unit, "GB/s") == 0)
        print_bandwidth("your_code", "your code", ms, amount, limit, limit_name);
    else
        print_flops("your_code", "your code", ms, amount, limit, limit_name);
    double rate = amount / (ms.median * 1e-3) / 1e9;
    printf("judge-median-ms %.6g\njudge-percent-of-limit %.1f\njudge-limit %s\n", ms.median, 100.0 * rate / limit,
           limit_name);
    (void)lab;
}

void lab_untimed(struct lab *lab, const char *why)
{
    printf("  not timed: %s\n", why);
    printf("judge-untimed %s\n", why);
    (void)lab;
}

void lab_cannot_run(struct lab *lab, const char *why)
{
    printf("  this lab cannot run on %s: %s\n", lab->dev.name, why);
    printf("judge-cannot-run %s\n", why);
    fflush(stdout);
    stop_runner(lab->runner, 0);
    exit(78);
}

int lab_end(struct lab *lab)
{
    relay_output(lab->runner, 1);
    printf("judge-correct %s\n", lab->failures ? "no" : "yes");
    fflush(stdout);
    /* The runner's memory is let go of here before it ends; then a runner still there is asked to go,
     * and given the time to: under a sanitizer, its report is written as it ends. */
    for (int i = 0; i < shared_count; i++)
        if (shared[i].kind == LAB_DEVICE)
            cudaIpcCloseMemHandle(shared[i].p);
    shared_count = 0;
    if (lab->runner->pid > 0 && send_header(lab, LAB_QUIT, 0) == 0)
        stop_runner(lab->runner, grace(lab));
    stop_runner(lab->runner, 0);
    return exit_status(lab->failures);
}

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
