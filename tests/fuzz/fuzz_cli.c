/* fuzz_cli.c: libFuzzer harness for cli_parse and parse_number (common/cli.c). An input is a command
 * line, its arguments separated by NUL bytes. cli.c is built with exit_hook.h, so a usage error or -h
 * comes back here (with exit status 2 or 0) instead of ending the process. The option table has every
 * kind but the output ones, whose check writes a probe file wherever the fuzzer points them (when the
 * check still made the folders, a --csv FILE made thousands of them in the working folder). */
#include "../../common/cli.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf back;

_Noreturn void fuzz_exit(int code)
{
    longjmp(back, code + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 64 };
    static char text[4096];
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = "fuzz_cli";
    for (char *p = text; p < text + size && argc < MAX_ARGS; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;

    long long n = 1000;
    int reps = 21, flag = 0;
    double gain = 1.0;
    const char *input = NULL, *label = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 4e9, "size"},
        {"-r", CLI_INT, &reps, 1, 100000, "reps"},
        {"--gain", CLI_DOUBLE, &gain, 0.01, 100, "gain"},
        {"--flag", CLI_FLAG, &flag, 0, 0, "a flag"},
        {"--input", CLI_INPUT_FILE, &input, 0, 0, "FILE to read"},
        {"--label", CLI_STRING, &label, 0, 0, "any text"},
    };
    int code = setjmp(back);
    if (code == 0) {
        int device = cli_parse(argc, argv, "fuzz", options, COUNT_OF(options));
        /* Accepted: every value within its range. */
        if (device < 0 || device > 1024 || n < 1 || n > 4e9 || reps < 1 || reps > 100000 || !(gain >= 0.01) ||
            !(gain <= 100))
            abort();
    } else if (code != 1 && code != 3) {
        abort();  /* only exit 0 (-h) and exit 2 (usage) are allowed */
    }
    double x;
    const char *why = NULL;
    if (parse_number(text, 1, 0, 1e12, &x, &why) == 0 ? !(x >= 0 && x <= 1e12 && x == (long long)x) : !why)
        abort();
    return 0;
}
