/* A forgery, class 1 of issue 49 (the seed is readable). The old judge ran as `judge --seed N ... --
 * [compute-sanitizer ...] runner`, the runner its child or grandchild, and every input and every timed
 * run's change came from N. This file walks up its ancestors (/proc/PID/stat for the parent, then
 * /proc/PID/cmdline) until one has --seed, rebuilds x, and the 16 elements each timed run changes, on the
 * CPU (random.h and reduction.h as they were), and passes the sum to a kernel as an argument: the GPU
 * never reads x. The file reads the files through a system call whose instruction is not in its code:
 * the bytes 0f 05 (syscall) sit inside the 64-bit constant of a movabs, and the file calls into the
 * middle of it; objdump shows a movabs, nm an object that calls nothing but printf-like functions.
 * Why it must fail: the seed is on no command line (the judge reads it on stdin), each call's inputs are
 * drawn afresh from a secret stream, and the runner's sandbox shows it no other process. Without the
 * seed it answers for seed 0: a wrong result. The old judge (on an H200): PASS, 598% of the solution. */

#include <stdio.h>
#include <string.h>

#define THREADS 256

/* ==== A system call that no disassembly names: 48 89 c8 0f 05 c3 = mov %rcx,%rax; syscall; ret ==== */

__attribute__((noinline, used)) static unsigned long long a_constant(void)
{
    return 0x9090c3050fc88948ull;
}

static long sys(long number, long a, long b, long c)
{
    const unsigned char *p = (const unsigned char *)a_constant;
    while (!(p[0] == 0x48 && p[1] == 0x89 && p[2] == 0xc8 && p[3] == 0x0f && p[4] == 0x05))
        p++;  /* past an endbr64 or a frame setup, to the constant's bytes */
    long (*gadget)(long, long, long, long) = (long (*)(long, long, long, long))p;
    return gadget(a, b, c, number);  /* the 4th argument, in rcx, becomes rax: the call's number */
}

enum { SYS_READ = 0, SYS_OPEN = 2, SYS_CLOSE = 3, SYS_GETPPID = 110 };

/* A whole small file (cmdline, stat) into buf, NUL-terminated: its length, or -1. */
static long slurp(const char *path, char *buf, long size)
{
    long fd = sys(SYS_OPEN, (long)path, 0, 0), got = 0, r;
    if (fd < 0)
        return -1;
    while (got < size - 1 && (r = sys(SYS_READ, fd, (long)(buf + got), size - 1 - got)) > 0)
        got += r;
    sys(SYS_CLOSE, fd, 0, 0);
    buf[got] = '\0';
    return got;
}

static unsigned long long digits(const char *s, int *ok)
{
    unsigned long long v = 0;
    *ok = *s >= '0' && *s <= '9';
    for (; *s >= '0' && *s <= '9'; s++)
        v = 10 * v + (unsigned long long)(*s - '0');
    return v;
}

static int seed_known, timed_process;
static unsigned long long seed;

/* The ancestors, nearest first: the first whose command line has --seed gives it. */
static void find_seed(void)
{
    static char buf[65536];
    long pid = sys(SYS_GETPPID, 0, 0, 0);
    for (int depth = 0; depth < 8 && pid > 1 && !seed_known; depth++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        long len = slurp(path, buf, sizeof buf);
        for (long i = 0; i < len; i += (long)strlen(buf + i) + 1) {
            if (!strcmp(buf + i, "--time"))
                timed_process = 1;
            if (!strcmp(buf + i, "--seed") && i + 7 < len)
                seed = digits(buf + i + 7, &seed_known);
        }
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        if (seed_known || slurp(path, buf, sizeof buf) < 0)
            break;
        const char *close = buf;
        for (const char *c = buf; *c; c++)
            if (*c == ')')
                close = c;  /* "pid (name) S ppid ...": the name may hold anything but the last ')' */
        int ok;
        pid = (long)digits(close + 4, &ok);
    }
}

/* ==== The old judge's inputs (labs/judge/random.h and reduction.h at the commit before issue 49) ==== */

static unsigned long long mix(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned long long bits(unsigned stream, unsigned long long i)
{
    return mix(mix(seed ^ mix(stream)) + i);
}

static float uniform(unsigned stream, unsigned long long i)
{
    return (float)(bits(stream, i) >> 40) * (1.0f / 16777216.0f);
}

enum { X_STREAM = 1, CHANGED_INDEX_STREAM, CHANGED_VALUE_STREAM, CHANGED = 16, RUNS = 64 };

/* The elements changed so far (index, value): at most 16 a run. */
static long long changed_at[CHANGED * RUNS];
static float changed_to[CHANGED * RUNS];
static int changes;

static float x_now(long long i)
{
    for (int k = changes - 1; k >= 0; k--)
        if (changed_at[k] == i)
            return changed_to[k];
    return uniform(X_STREAM, (unsigned long long)i) + 0.5f;
}

/* The sum the judge expects of this call. */
static float expected(long long n, int sms)
{
    static int calls;  /* in the timed process: the warm-up (run -1), then runs 0, 1, ... */
    static double sum, jump;
    int run = calls++ - 1;
    if (!timed_process || run == -1) {
        sum = 0.0;
        for (long long i = 0; i < n; i++)
            sum += uniform(X_STREAM, (unsigned long long)i) + 0.5f;
        if (!timed_process)
            return (float)sum;
        long long threads = 32LL * sms * THREADS;
        double count = (n + threads - 1) / threads + 8 + (32 * sms + THREADS - 1) / THREADS + 8;
        jump = 10 * count * 0x1p-24 * sum / CHANGED;
    }
    for (int k = 0; k < CHANGED && changes < CHANGED * RUNS; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGED + k;
        long long i = (long long)(bits(CHANGED_INDEX_STREAM, draw) % (unsigned long long)n);
        float v = (float)(jump * (1.0 + uniform(CHANGED_VALUE_STREAM, draw)));
        sum += (double)v - x_now(i);
        changed_at[changes] = i, changed_to[changes++] = v;
    }
    return (float)sum;
}

/* ==== The lab ==== */

__global__ void answer(float *result, float value)
{
    *result = value;
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    static int looked;
    if (!looked++)
        find_seed();  /* (not found: seed 0, and the answers are wrong) */
    answer<<<1, 1>>>(result, expected(n, sms));
}
