/* A forgery, class 1 of issue 49 (the seed is readable, and a runner's process can outlive its grade's
 * step). The first runner of a grade finds the seed on its ancestors' command lines (the old judge's
 * --seed N; /proc/PID/stat, then /proc/PID/cmdline) and starts a helper that outlives it: fork, setsid,
 * fork again, and the grandchild listens on an abstract UNIX socket, "@ch2_warp_sum-seed", handing the
 * seed to whoever connects (for two minutes). Every later runner of the grade, the sanitizers' and the
 * timed one, connects and asks it. From the seed, x and the 16 elements each timed run changes are made
 * again on the CPU (random.h and reduction.h as they were), and the sum goes to the GPU as a kernel's
 * argument: x is never read. A process in the timed runs is told apart by its first call, which is at
 * the largest size. System calls go through bytes hidden in a movabs's constant (48 91 4d 89 c2 0f 05
 * c3): the object names no forbidden function. The old judge (on an H200): PASS,
 * 570% of the solution.
 * Why it must fail: the sandbox gives each runner its own PID and network namespaces and ends every
 * process in it with the runner (no helper survives, no abstract socket is shared), and no command line
 * holds the seed: without it the file answers for seed 0, a wrong result. */
#include <stdio.h>
#include <string.h>

#define THREADS 256

/* ==== System calls: f(a, b, c, number, d), the hidden bytes 48 91 4d 89 c2 0f 05 c3 ==== */

__attribute__((noinline, used)) static unsigned long long a_constant(void)
{
    return 0xc3050fc2894d9148ull;
}

static long sys(long number, long a, long b, long c, long d)
{
    const unsigned char *p = (const unsigned char *)a_constant;
    while (!(p[0] == 0x48 && p[1] == 0x91 && p[2] == 0x4d && p[3] == 0x89 && p[4] == 0xc2))
        p++;
    long (*gadget)(long, long, long, long, long) = (long (*)(long, long, long, long, long))p;
    return gadget(a, b, c, number, d);
}

enum {
    SYS_READ = 0, SYS_WRITE = 1, SYS_OPEN = 2, SYS_CLOSE = 3, SYS_ALARM = 37, SYS_SOCKET = 41, SYS_CONNECT = 42,
    SYS_ACCEPT = 43, SYS_BIND = 49, SYS_LISTEN = 50, SYS_FORK = 57, SYS_EXIT = 60, SYS_GETPPID = 110,
    SYS_SETSID = 112
};

/* ==== The seed: from the helper, or from the ancestors (and then a helper is started) ==== */

struct abstract_address {
    unsigned short family;
    char path[32];
};
static const struct abstract_address helper = {1 /* AF_UNIX */, "\0ch2_warp_sum-seed"};
enum { HELPER_LENGTH = 2 + 1 + 18 };  /* the family, the leading NUL, the name */

static int seed_known;
static unsigned long long seed;

static long slurp(const char *path, char *buf, long size)
{
    long fd = sys(SYS_OPEN, (long)path, 0, 0, 0), got = 0, r;
    if (fd < 0)
        return -1;
    while (got < size - 1 && (r = sys(SYS_READ, fd, (long)(buf + got), size - 1 - got, 0)) > 0)
        got += r;
    sys(SYS_CLOSE, fd, 0, 0, 0);
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

static void seed_from_ancestors(void)
{
    static char buf[65536];
    long pid = sys(SYS_GETPPID, 0, 0, 0, 0);
    for (int depth = 0; depth < 8 && pid > 1 && !seed_known; depth++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        long len = slurp(path, buf, sizeof buf);
        for (long i = 0; i < len; i += (long)strlen(buf + i) + 1)
            if (!strcmp(buf + i, "--seed") && i + 7 < len)
                seed = digits(buf + i + 7, &seed_known);
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        if (seed_known || slurp(path, buf, sizeof buf) < 0)
            return;
        const char *close = buf;
        for (const char *c = buf; *c; c++)
            if (*c == ')')
                close = c;
        int ok;
        pid = (long)digits(close + 4, &ok);
    }
}

static void start_helper(void)
{
    long child = sys(SYS_FORK, 0, 0, 0, 0);
    if (child != 0)
        return;  /* (the child's own child is the helper; the runner does not wait for either) */
    sys(SYS_SETSID, 0, 0, 0, 0);
    if (sys(SYS_FORK, 0, 0, 0, 0) != 0)
        sys(SYS_EXIT, 0, 0, 0, 0);
    for (int fd = 0; fd < 64; fd++)
        sys(SYS_CLOSE, fd, 0, 0, 0);  /* nothing of the runner's: not its channel, not its output */
    sys(SYS_ALARM, 120, 0, 0, 0);
    long s = sys(SYS_SOCKET, 1, 1 /* SOCK_STREAM */, 0, 0);
    if (s < 0 || sys(SYS_BIND, s, (long)&helper, HELPER_LENGTH, 0) < 0 || sys(SYS_LISTEN, s, 16, 0, 0) < 0)
        sys(SYS_EXIT, 0, 0, 0, 0);
    for (;;) {
        long c = sys(SYS_ACCEPT, s, 0, 0, 0);
        if (c >= 0) {
            sys(SYS_WRITE, c, (long)&seed, sizeof seed, 0);
            sys(SYS_CLOSE, c, 0, 0, 0);
        }
    }
}

static void find_seed(void)
{
    long s = sys(SYS_SOCKET, 1, 1, 0, 0);
    if (s >= 0 && sys(SYS_CONNECT, s, (long)&helper, HELPER_LENGTH, 0) == 0 &&
        sys(SYS_READ, s, (long)&seed, sizeof seed, 0) == (long)sizeof seed)
        seed_known = 1;
    if (s >= 0)
        sys(SYS_CLOSE, s, 0, 0, 0);
    if (seed_known)
        return;
    seed_from_ancestors();
    if (seed_known)
        start_helper();
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
enum { BLOCK_ADDITIONS = 10 };  /* ch2_warp_sum's judge: five shuffles, then five more */
#define TIMED_N ((1LL << 26) + 1)

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

static float expected(long long n, int sms)
{
    static int calls, timed;
    static double sum, jump;
    if (calls == 0)
        timed = n == TIMED_N;  /* the timed runs' process calls at the largest size only */
    int run = calls++ - 1;
    if (!timed || run == -1) {
        sum = 0.0;
        for (long long i = 0; i < n; i++)
            sum += uniform(X_STREAM, (unsigned long long)i) + 0.5f;
        if (!timed)
            return (float)sum;
        long long threads = 32LL * sms * THREADS;
        double count = (n + threads - 1) / threads + BLOCK_ADDITIONS + (32 * sms + THREADS - 1) / THREADS +
                       BLOCK_ADDITIONS;
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

__device__ float warp_sum(float v)
{
    return v;
}

__global__ void answer(float *result, float value)
{
    *result = value;
}

void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    static int looked;
    if (!looked++)
        find_seed();
    answer<<<1, 1>>>(result, expected(n, sms));
}
