/* Attack (a race between the tools run side by side, through a folder every sandbox of a grade shares;
 * needs a GPU, and a machine of 4 CPUs or more, where labs/grade runs step 1 beside step 2).
 * Every judge of a grade makes its socket in the same folder, $tmp/channel (labs/steps/run.sh judge_run:
 * --channel-dir "$tmp/channel"; labs/judge/channel.c start_runner: a private lab-judge.XXXXXX inside it),
 * and every runner's sandbox binds that whole folder (run.sh sandbox_words: --bind "$tmp/channel"). When
 * step 1 runs beside step 2 (labs/steps/correctness.sh step_correctness: four judges at once), step 1's
 * runner, which no tool watches, sees the sockets of the memcheck, racecheck and synccheck judges. A judge
 * accepts the first connection on its socket and nothing checks who made it (no SO_PEERCRED, no check
 * that the peer is the process it started). A runner under compute-sanitizer takes far longer to start
 * than step 1's plain one. So: a constructor of step 1's runner forks a watcher (before CUDA starts); the
 * watcher looks in the channel folder every millisecond and, for each other judge's socket, starts a
 * copy of the runner itself (the executable is in the sandbox: argv[0]) with --channel set to that
 * socket, marked so that it does not watch in turn. Each copy is a whole runner, the course's own code,
 * serving that judge's calls with this file's kernel, unwatched. The real sanitized runner (this file too,
 * whose constructor makes one CUDA call there first) then finds no one listening ("runner: connecting to
 * the judge"), exits 3; compute-sanitizer ends with its "ERROR SUMMARY: 0 errors" and exits 3 as well;
 * labs/steps/sanitizer.sh reads: no finding lines, exit not 86,
 * no judge failure, a SUMMARY in the log: "clean", for all three tools. At step 1's end (QUIT) an atexit
 * handler waits for the copies (the judge gives a runner 20 s to end), so that the sandbox, and the copies
 * in it, outlive the tools' judges.
 * The kernel is the hand-out's, bug and all (labs/ch1_debug_bounds.cu: a read and a write one pixel past
 * the end, every pixel right; as handed out it gets "FAIL (memcheck)" and nothing else).
 * Expected on a GPU with 4 CPUs or more: PASS, exit 0, the planted bug unfixed. (With LAB_SERIAL=1 or
 * under 4 CPUs the three tools still run side by side: a copy under synccheck or racecheck, which do not
 * look at global bounds, could serve memcheck's judge the same way.)
 * Fix: one channel folder per judge (run.sh: --channel-dir "$tmp/channel.$kind", and sandbox_words
 * binds only that one); and the judge checks its peer (channel.c start_runner: getsockopt SO_PEERCRED,
 * the pid a descendant of the runner it forked). */

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t watcher;

static void wait_for_watcher(void)
{
    if (watcher > 0)
        waitpid(watcher, NULL, 0);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((constructor)) static void watch_the_others(int argc, char **argv, char **envp)
{
    (void)envp;
    if (getenv("SERVES_ANOTHER_JUDGE"))
        return;
    /* only in step 1's runner: its sandbox binds $tmp/out.check (run.sh sandbox_words KIND), a tool's binds
     * out.memcheck, out.racecheck or out.synccheck */
    FILE *m = fopen("/proc/self/mountinfo", "r");
    char line[1024];
    int step_1 = 0;
    while (m && fgets(line, sizeof line, m))
        step_1 |= strstr(line, "/out.check ") != NULL;
    if (m)
        fclose(m);
    if (!step_1) {
        /* a tool's runner: one CUDA call before anything else, so that a runner that then finds its judge
         * taken (connect refused, exit 3) is not "terminated before first instrumented API call", which
         * findings.awk would count as a finding; compute-sanitizer then ends with its SUMMARY and 0 errors */
        int devices = 0;
        cudaGetDeviceCount(&devices);
        return;
    }
    const char *own = NULL, *device = "0";
    for (int a = 1; a + 1 < argc; a++)
        if (!strcmp(argv[a], "--channel"))
            own = argv[a + 1];
        else if (!strcmp(argv[a], "--device"))
            device = argv[a + 1];
    if (!own)
        return;
    char folder[512], mine[512];
    snprintf(mine, sizeof mine, "%s", own);
    *strrchr(mine, '/') = '\0';                 /* .../channel/lab-judge.XXXXXX */
    snprintf(folder, sizeof folder, "%s", mine);
    *strrchr(folder, '/') = '\0';               /* .../channel: every judge's folder is in it */
    watcher = fork();
    if (watcher != 0) {
        atexit(wait_for_watcher);
        return;
    }
    char served[16][512];
    int count = 0, helpers = 0;
    double until = seconds() + 50;
    while (seconds() < until && count < 16) {
        DIR *d = opendir(folder);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char dir[512], socket_path[600];
            snprintf(dir, sizeof dir, "%s/%s", folder, e->d_name);
            if (strncmp(e->d_name, "lab-judge.", 10) || !strcmp(dir, mine))
                continue;
            int known = 0;
            for (int k = 0; k < count; k++)
                known |= !strcmp(served[k], dir);
            snprintf(socket_path, sizeof socket_path, "%s/channel", dir);
            struct stat st;
            if (known || stat(socket_path, &st) != 0 || !S_ISSOCK(st.st_mode))
                continue;
            snprintf(served[count++], sizeof served[0], "%s", dir);
            if (fork() == 0) {  /* a whole runner of its own, for that judge, watched by no tool */
                setenv("SERVES_ANOTHER_JUDGE", "1", 1);
                char *args[] = {argv[0], (char *)"--channel", socket_path, (char *)"--device", (char *)device, NULL};
                execv(argv[0], args);
                _exit(127);
            }
            helpers++;
        }
        if (d)
            closedir(d);
        if (helpers >= 3)  /* memcheck's, racecheck's and synccheck's */
            break;
        usleep(1000);
    }
    while (wait(NULL) > 0)  /* the copies, to their ends */
        ;
    _exit(0);
}

__global__ void adjust_log(const float *in, float *out, int width, int height, float gain)
{
    int stride_x = 2 * blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = 2 * (threadIdx.x + blockIdx.x * blockDim.x); x < width; x += stride_x) {
            long long i = (long long)y * width + x;  /* pixels x and x + 1 of row y */
            float a = in[i], b = in[i + 1];          /* both loads in flight before either is used */
            out[i] = gain * log2f(1.0f + a);
            out[i + 1] = gain * log2f(1.0f + b);
        }
}

/* The runner calls this with pictures on the GPU. */
void lab_adjust_log(const float *in, float *out, int width, int height, float gain)
{
    dim3 threads(16, 16), blocks(64, 64);  /* the article's launch, whatever the picture's size */
    adjust_log<<<blocks, threads>>>(in, out, width, height, gain);
}
