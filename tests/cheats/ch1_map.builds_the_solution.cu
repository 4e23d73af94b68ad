/* A forgery, class 1 of issue 49 (the runner reaches outside its process: the seed, the course, other
 * programs). It writes no saxpy at all. Before main, a constructor forks; the child runs a shell that
 * finds the course from the runner's own path (output/labs/build/...), asks make for the lab's nvcc
 * line, and builds the course's solution, labs/solutions/ch1_map.cu, with the runner's other objects,
 * into a runner of its own; the parent waits, then execve()s that runner in its own place, with its own
 * arguments: the judge's channel is then served by the solution, which the judge grades. Every system
 * call (fork, execve, wait4, getpid) goes through the bytes 48 91 4d 89 c2 0f 05 c3 (xchg, mov, syscall,
 * ret), hidden in a movabs's constant: the object names no forbidden function and has no syscall
 * instruction. Under compute-sanitizer it does none of this (the tools report a process that replaces
 * itself before its first CUDA call) and runs its own empty kernel, which they find clean. The old judge
 * would pass it, as fast as the solution, since it is the solution (its first version, which replaced
 * itself under the tools too, passed step 1 on an H200 and failed the tools).
 * Why it must fail: the sandbox shows the runner neither the course nor a shell nor a compiler, and
 * stops it starting processes; then nothing is built, the file's own empty kernel runs: a wrong result
 * (or, if the sandbox kills it, a failure that names the sandbox). */

#include <stdio.h>
#include <string.h>

/* ==== System calls: f(a, b, c, number, d) puts number in rcx and d in r8; the hidden bytes move them
 * to rax and r10 ==== */

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

enum { SYS_READ = 0, SYS_OPEN = 2, SYS_CLOSE = 3, SYS_GETPID = 39, SYS_FORK = 57, SYS_EXECVE = 59, SYS_EXIT = 60,
       SYS_WAIT4 = 61, SYS_GETPPID = 110 };

static int holds(const char *text, long length, const char *word)
{
    long w = (long)strlen(word);
    for (long i = 0; i + w <= length; i++) {
        long j = 0;
        while (j < w && text[i + j] == word[j])
            j++;
        if (j == w)
            return 1;
    }
    return 0;
}

/* Under compute-sanitizer (its injection in the environment, or its command line as the parent's): a
 * process that replaces itself before its first CUDA call is a finding there ("terminated before first
 * instrumented API call"), so under the tools the file stays itself, and computes nothing: the tools
 * check memory and races, not results. */
static int under_the_sanitizer(char **envp)
{
    for (char **e = envp; e && *e; e++)
        if (holds(*e, (long)strlen(*e), "CUDA_INJECTION64_PATH=") || holds(*e, (long)strlen(*e), "anitizer"))
            return 1;
    static char line[4096];
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", sys(SYS_GETPPID, 0, 0, 0, 0));
    long fd = sys(SYS_OPEN, (long)path, 0, 0, 0), got = 0;
    if (fd < 0)
        return 0;
    got = sys(SYS_READ, fd, (long)line, sizeof line, 0);
    sys(SYS_CLOSE, fd, 0, 0, 0);
    return got > 0 && holds(line, got, "sanitizer");
}

/* $0: the runner's path; $1: a folder for the solution's runner. */
static const char build[] =
    "root=${0%/output/labs/*}; mkdir -p \"$1\" || exit 1\n"
    "nv=$(make -s -C \"$root\" --no-print-directory lab-nvcc 2>/dev/null) || exit 1\n"
    "$nv -c \"$root/labs/solutions/ch1_map.cu\" -o \"$1/solution.o\" || exit 1\n"
    "o=$root/output/labs\n"
    "$nv \"$1/solution.o\" $o/runner/ch1_map.o $o/runner.o $o/runner/touch.o -o \"$1/runner\" || exit 1\n";

__attribute__((constructor)) static void take_its_place(int argc, char **argv, char **envp)
{
    if (argc < 1 || under_the_sanitizer(envp))
        return;
    char folder[64], runner[80];
    snprintf(folder, sizeof folder, "/tmp/.ch1_map-%ld", sys(SYS_GETPID, 0, 0, 0, 0));
    snprintf(runner, sizeof runner, "%s/runner", folder);
    long child = sys(SYS_FORK, 0, 0, 0, 0);
    if (child == 0) {
        const char *args[] = {"/bin/sh", "-c", build, argv[0], folder, 0};
        sys(SYS_EXECVE, (long)"/bin/sh", (long)args, (long)envp, 0);
        sys(SYS_EXIT, 127, 0, 0, 0);
    }
    int status = -1;
    if (child < 0 || sys(SYS_WAIT4, child, (long)&status, 0, 0) != child || status != 0)
        return;  /* no solution: the file's own kernel, which does nothing */
    sys(SYS_EXECVE, (long)runner, (long)argv, (long)envp, 0);
}

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
}

/* The harness calls this with arrays on the GPU. */
void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
