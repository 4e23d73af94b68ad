/* unit_channel.c: what the judge says of a call's outcome (labs/judge/channel.c, read_done through lab_run), on
 * a runner made up here, without a GPU: this program again, started by the judge as a runner is
 * ("--fake-runner STATUS ERROR", then "--channel PATH"), which says HELLO, takes the CALL, prints a line as a
 * file's own check would, and answers DONE with the status and the error given (runner.c's: 0 ended well; 1 a
 * CUDA error that stays, the GPU's, found by the runner's wait once the file had returned; 3 one that does not,
 * a launch refused; 2 the runner's own trouble). TAP; built by make test (output/labs/unit_channel), run by
 * tests/channel.t. */
#define _POSIX_C_SOURCE 200809L  /* fileno, dup */
#include "lab_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int tests;

static void ok(int holds, const char *what, const char *report)
{
    printf("%sok %d - %s\n", holds ? "" : "not ", ++tests, what);
    if (!holds)  /* what the judge said, a "# " before each line */
        for (const char *line = report; *line;) {
            const char *end = strchr(line, '\n');
            int length = end ? (int)(end - line) : (int)strlen(line);
            printf("# %.*s\n", length, line);
            line += length + (end != NULL);
        }
}

/* ==== The made-up runner ==== */

static void put(int fd, const void *bytes, size_t size)
{
    for (const char *p = (const char *)bytes; size > 0;) {
        ssize_t n = write(fd, p, size);
        if (n <= 0)
            exit(3);
        p += n, size -= (size_t)n;
    }
}

static void get(int fd, void *bytes, size_t size)
{
    for (char *p = (char *)bytes; size > 0;) {
        ssize_t n = read(fd, p, size);
        if (n <= 0)
            exit(3);
        p += n, size -= (size_t)n;
    }
}

static int fake_runner(int argc, char **argv)
{
    const char *path = NULL;
    for (int a = 1; a + 1 < argc; a++)
        if (!strcmp(argv[a], "--channel"))
            path = argv[a + 1];
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (!path || strlen(path) >= sizeof address.sun_path)
        return 2;
    strcpy(address.sun_path, path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0)
        return 3;
    struct lab_hello_wire hello;
    memset(&hello, 0, sizeof hello);
    snprintf(hello.text, sizeof hello.text, "a made-up GPU");
    struct lab_header h = {LAB_MAGIC, LAB_HELLO, sizeof hello};
    put(fd, &h, sizeof h);
    put(fd, &hello, sizeof hello);
    struct lab_call_wire w;
    get(fd, &h, sizeof h);
    if (h.magic != LAB_MAGIC || h.type != LAB_CALL || h.bytes != sizeof w)
        return 3;
    get(fd, &w, sizeof w);  /* (the call's arguments are numbers: nothing follows them) */
    int status = atoi(argv[2]);
    if (status == 1)  /* the file's own check, as the hand-out of ch3_debug_async prints it, before DONE */
        fprintf(stderr, "fake.cu:71: cudaStreamSynchronize(stream) returned cudaErrorMisalignedAddress\n");
    struct lab_done_wire done;
    memset(&done, 0, sizeof done);
    done.status = status;
    snprintf(done.error, sizeof done.error, "%s", argv[3]);
    h.type = LAB_DONE, h.bytes = sizeof done;
    put(fd, &h, sizeof h);
    put(fd, &done, sizeof done);
    return status != 0;  /* as runner.c: after an error it ends */
}

/* ==== The judge's side ==== */

static char report[8192];

/* One call of one number, answered with `status` and `error`: lab_run's value, and what the judge printed in
 * report. */
static int call_answered(struct lab *lab, char *self, const char *status, const char *error)
{
    memset(lab, 0, sizeof *lab);
    lab->timeout = 30, lab->pick = LAB_NO_PICK;
    runner_setup(lab);  /* (the one runner of channel.c, stopped at exit) */
    char *argv[] = {self, (char *)"--fake-runner", (char *)status, (char *)error, NULL};
    lab->runner_argv = argv;
    struct lab_call c;
    lab_call_start(&c);
    lab_int(&c, 33);
    fflush(stdout);
    FILE *f = tmpfile();
    int saved = dup(1);
    if (!f || saved < 0)
        exit(1);
    dup2(fileno(f), 1);
    int failed = lab_run(lab, &c);
    stop_runner(lab->runner, 5);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    size_t n = fread(report, 1, sizeof report - 1, f);
    report[n] = '\0';
    fclose(f);
    return failed;
}

static int says(const char *text)
{
    return strstr(report, text) != NULL;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "--fake-runner"))
        return fake_runner(argc, argv);
    struct lab lab;
    printf("1..5\n");

    const char *misaligned = "cudaErrorMisalignedAddress (misaligned address)";
    int failed = call_answered(&lab, argv[0], "1", misaligned);
    ok(failed && lab.failures == 1 && !strcmp(lab.cuda_error, misaligned) && says("judge-failure cuda\n"),
       "a sticky error: the call failed, a CUDA error, kept in lab.cuda_error for the judge's hint", report);
    const char *own = strstr(report, "  | fake.cu:71: cudaStreamSynchronize(stream) returned ");
    const char *judge = strstr(report, "  a CUDA error, cudaErrorMisalignedAddress (misaligned address), returned by "
                                       "the runner's wait for the GPU\n  (cudaDeviceSynchronize) once your code had "
                                       "returned: an error of the GPU's.");
    ok(own && judge && own < judge && says("The error is sticky") && says("its fault is reported by the next call") &&
       says("compute-sanitizer's memcheck (step 2) names the kernel's line"),
       "a sticky error: the file's own line first, then which call found it, that it is the GPU's, sticky, and "
       "memcheck's step", report);

    const char *refused = "cudaErrorInvalidConfiguration (invalid configuration argument)";
    failed = call_answered(&lab, argv[0], "3", refused);
    ok(failed && !strcmp(lab.cuda_error, refused) && says("judge-failure cuda\n") && says("and not sticky: a launch") &&
       says("cudaGetLastError() right after a launch") && !says("The error is sticky"),
       "an error that did not stay: a launch refused, not the GPU's sticky error", report);

    failed = call_answered(&lab, argv[0], "2", "cudaErrorMemoryAllocation (out of memory)");
    ok(failed && lab.cuda_error[0] == '\0' && says("the runner could not prepare the call: cudaErrorMemory") &&
       says("judge-failure runner\n") && !says("judge-failure cuda"),
       "the runner's own trouble: not the file's CUDA error", report);

    failed = call_answered(&lab, argv[0], "0", "");
    ok(!failed && lab.failures == 0 && lab.cuda_error[0] == '\0' && !says("judge-failure"),
       "a call that ended well: nothing said, no error kept", report);
    return 0;
}
