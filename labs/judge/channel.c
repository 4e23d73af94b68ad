/* channel.c: the judge's side of labs/judge/protocol.h, the runner's process and the channel to it:
 * the runner started (a socket in a private folder, its output into a pipe), talked to with a deadline,
 * its output relayed line by line, stopped; a call sent and its outcome read (lab_run). lab.c and timed.c
 * use it through lab_internal.h. */
#define _GNU_SOURCE  /* accept4, pipe2, strsignal */
#include "lab_internal.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* ==== The runner's process ==== */

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

void relay_output(struct lab_runner *r, int flush)
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
void stop_runner(struct lab_runner *r, double grace)
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
        char path[160];
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

/* The judge's one runner: stopped however the judge ends, by exit or by a signal. A write to a runner that
 * is gone fails (and is said so) instead of ending the judge. */
void runner_setup(struct lab *lab)
{
    lab->runner = &the_runner;
    atexit(stop_at_exit);
    signal(SIGTERM, stop_on_signal);
    signal(SIGINT, stop_on_signal);
    signal(SIGHUP, stop_on_signal);
    signal(SIGPIPE, SIG_IGN);
}

/* The time a runner that is ending by itself may take: a sanitizer writes its report then. */
double grace(const struct lab *lab)
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

/* ==== The channel ==== */

/* Waits until fd can be read (or written), relaying the runner's output meanwhile. 0, or -1: the
 * deadline passed (or poll failed). During the timed runs (lab->spin) it spins instead of sleeping: a
 * process woken from sleep starts late, by an amount that varies, and the judge's clock is running. */
int wait_for(struct lab *lab, int fd, short events)
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
int channel_read(struct lab *lab, void *buffer, size_t bytes)
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

int channel_write(struct lab *lab, const void *buffer, size_t bytes)
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
int runner_lost(struct lab *lab, int how, const char *doing)
{
    if (how == 2)
        say_over_time(lab, doing);
    else
        say_runner_ended(lab, doing);
    return 1;
}

int send_header(struct lab *lab, uint32_t type, uint64_t bytes)
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

/* ==== Starting the runner ==== */

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

/* Starts the runner: a private folder with a socket in it, the runner's command line with
 * "--channel PATH --device N" added, its output into a pipe; then its HELLO. 1 if it did not start. */
int start_runner(struct lab *lab)
{
    struct lab_runner *r = lab->runner;
    if (r->pid > 0)
        return 0;
    if (lab->deadline == 0)  /* LAB_TIMEOUT counts the runner's time, from its first start */
        lab->deadline = wall_seconds() + lab->timeout;
    /* (a socket's path is short: 108 bytes; the folder is the one a sandboxed runner sees of the judge's) */
    snprintf(r->dir, sizeof r->dir, "%s/lab-judge.XXXXXX", lab->channel_dir ? lab->channel_dir : "/tmp");
    if (!mkdtemp(r->dir)) {
        perror("judge: mkdtemp");
        exit(1);
    }
    char path[160], device[16];
    snprintf(path, sizeof path, "%s/channel", r->dir);
    snprintf(device, sizeof device, "%d", lab->dev.id);
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address.sun_path) {
        fprintf(stderr, "judge: the runner's socket %s: a path of %zu bytes at most\n", path,
                sizeof address.sun_path - 1);
        exit(1);
    }
    memcpy(address.sun_path, path, strlen(path) + 1);
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

/* ==== A call ==== */

/* The outcome of a call: 0, or 1 after saying why (a CUDA error in the student's code, or the runner's
 * own trouble). A CUDA error is kept in lab->cuda_error, for the judge's hint; which call of the runner's
 * found it, and what that means, is said here (runner.c's statuses: 1 sticky, 3 not). */
int read_done(struct lab *lab, const char *doing)
{
    struct lab_done_wire done;
    lab->cuda_error[0] = '\0';
    if (expect(lab, LAB_DONE, sizeof done, doing))
        return 1;
    int how = channel_read(lab, &done, sizeof done);
    if (how)
        return runner_lost(lab, how, doing);
    lab->launches = (int)done.launches;
    lab->elapsed = (int)done.elapsed;
    if (done.status == 0)
        return 0;
    printable(done.error, sizeof done.error);
    relay_output(lab->runner, 1);
    if (done.status == 1) {
        snprintf(lab->cuda_error, sizeof lab->cuda_error, "%s", done.error);
        printf("  a CUDA error, %s, returned by the runner's wait for the GPU\n", done.error);
        printf("  (cudaDeviceSynchronize) once your code had returned: an error of the GPU's. Work your code queued, "
               "a kernel\n  most often, failed as it ran; a launch only queues a kernel, so its fault is reported by "
               "the next call\n  that waits for the GPU, not at the line where it happened. The error is sticky: "
               "every CUDA call after it\n  fails too, and the runner stops. compute-sanitizer's memcheck (step 2) "
               "names the kernel's line.\n");
        printf("judge-failure cuda\n");
    } else if (done.status == 3) {
        snprintf(lab->cuda_error, sizeof lab->cuda_error, "%s", done.error);
        printf("  a CUDA error, %s, found once your code had returned\n", done.error);
        printf("  (by the runner's cudaDeviceSynchronize, then cudaGetLastError), and not sticky: a launch your code "
               "made was\n  refused, most often, and no kernel ran. cudaGetLastError() right after a launch says "
               "whether it was\n  refused, and why.\n");
        printf("judge-failure cuda\n");
    } else {
        printf("  the runner could not prepare the call: %s\n", done.error);
        printf("judge-failure runner\n");
    }
    stop_runner(lab->runner, grace(lab));  /* it ends by itself after a CUDA error */
    lab->failures++;
    return 1;
}

/* A guard's bytes after a call (LAB_GUARD): all poison, or a write past the end of argument a, said with
 * where it landed. The grade's step 2 fails the file on it where memcheck saw no such write (the file then
 * behaves otherwise under the tool); where memcheck saw it, its finding says which line. */
static void check_guard(const unsigned char *guard, int a, uint64_t bytes)
{
    static int said;
    int first = -1, last = -1;
    for (int k = 0; k < LAB_GUARD_BYTES; k++)
        if (guard[k] != 0xff)
            last = k, first = first < 0 ? k : first;
    if (first < 0)
        return;
    if (said++ < 3)
        printf("  argument %d, a buffer of %llu bytes, was written past its end (bytes %d to %d after it), in a run "
               "no tool watched: step 2's memcheck says which line\n", a + 1, (unsigned long long)bytes, first,
               last);
    printf("judge-past-end argument %d, %llu bytes, written %d to %d bytes after its end\n", a + 1,
           (unsigned long long)bytes, first, last);
}

int lab_run(struct lab *lab, const struct lab_call *c)
{
    if (start_runner(lab))
        return 1;
    struct lab_call_wire w;
    memset(&w, 0, sizeof w);
    w.count = (uint32_t)c->count;
    memcpy(w.arg, c->arg, c->count * sizeof w.arg[0]);
    /* Where no sanitizer watches (--small is its run), every device buffer has its guard. */
    for (int a = 0; a < c->count && !lab->small; a++)
        if (w.arg[a].kind == LAB_DEVICE && !(w.arg[a].flags & LAB_SHARED))
            w.arg[a].flags |= LAB_GUARD;
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
    for (int a = 0; a < c->count; a++) {
        if ((c->arg[a].flags & LAB_RETURN) && !(c->arg[a].flags & LAB_SHARED)) {
            int how = channel_read(lab, c->out[a], c->arg[a].bytes);
            if (how)
                return runner_lost(lab, how, "sending its outputs back");
        }
        if (w.arg[a].flags & LAB_GUARD) {
            unsigned char guard[LAB_GUARD_BYTES];
            int how = channel_read(lab, guard, sizeof guard);
            if (how)
                return runner_lost(lab, how, "sending its outputs back");
            check_guard(guard, a, c->arg[a].bytes);
        }
    }
    relay_output(lab->runner, 0);
    return 0;
}
