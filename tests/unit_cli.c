/* unit_cli.c: cli_parse's table, for tests/unit_common (unit.h): what -h prints for each kind of option,
 * the one line and exit 2 of each refusal, what each kind of value is stored as, --device, --NAME=VALUE,
 * cli_given, and parse_number at the ends of its range. Each parse runs in a forked child (a refusal
 * exits), given an argv of its own. tests/cli.t holds every program to the same contract; this holds
 * cli.c to it without building the programs (tests/mutants.sh runs it on each change to common/). */
#define _POSIX_C_SOURCE 200809L
#include "../common/cli.h"
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *args[9];
static int flag, count, device, given_n, given_r;
static long long size;
static double real;
static const char *text, *in, *out, *dir;

/* A table of every kind; the child prints what each value became. */
static void parse_args(void)
{
    struct cli_option options[] = {
        {"--flag", CLI_FLAG, &flag, 0, 0, "a flag"},
        {"-n", CLI_SIZE, &size, 1, 1000, "a size"},
        {"-r", CLI_INT, &count, 2, 9, "a count"},
        {"-x", CLI_DOUBLE, &real, -1, 1, "a real"},
        {"-s", CLI_STRING, &text, 0, 0, "a text"},
        {"--in", CLI_INPUT_FILE, &in, 0, 0, "a file read"},
        {"--out", CLI_OUTPUT_FILE, &out, 0, 0, "a file written"},
        {"-o", CLI_OUTPUT_DIR, &dir, 0, 0, "a folder written"},
    };
    int argc = 0;
    while (args[argc])
        argc++;
    device = cli_parse(argc, (char **)args, "a table of every kind", options, COUNT_OF(options));
    given_n = cli_given("-n"), given_r = cli_given("-r");
    printf("flag %d n %lld r %d x %g s %s in %s out %s o %s device %d given -n %d -r %d\n", flag, size, count,
           real, text ? text : "-", in ? in : "-", out ? out : "-", dir ? dir : "-", device, given_n, given_r);
}

/* parse: cli_parse over "prog" and the words given (up to seven, then NULL): the exit status, the output. */
static int parse(char **output, ...)
{
    va_list words;
    va_start(words, output);
    args[0] = "prog";
    for (int i = 1; i < 9; i++)
        if (!(args[i] = i < 8 ? va_arg(words, const char *) : NULL))
            break;
    va_end(words);
    return in_child(parse_args, NULL, output);
}
#define P(...) parse(&output, __VA_ARGS__, (const char *)NULL)

void test_cli(void)
{
    char *output = NULL;
    double x = 0;
    const char *why = NULL;
    ok(parse_number("1", 1, 1, 10, &x, &why) == 0 && x == 1 && parse_number("10", 1, 1, 10, &x, &why) == 0 &&
       x == 10, "parse_number takes its minimum and its maximum");

    int code = P("-h");
    ok(code == 0 && strstr(output, "usage: prog [options]\na table of every kind\n\noptions:\n") &&
       strstr(output, "  --flag            a flag\n") && strstr(output, "  -n N              a size\n") &&
       strstr(output, "  -r N              a count\n") && strstr(output, "  -x N              a real\n") &&
       strstr(output, "  -s TEXT           a text\n") && strstr(output, "  --in FILE         a file read\n") &&
       strstr(output, "  --out FILE        a file written\n") &&
       strstr(output, "  -o DIR            a folder written\n") &&
       strstr(output, "  --device N        CUDA device to run on (default 0)\n"),
       "-h: the usage line, the text, and each option with what it takes (N, TEXT, FILE, DIR; a flag none)");
    code = P("--flag", "-n", "1M", "-r", "9", "-x");
    ok(code == 2 && strstr(output, "-n: '1M' is too large") && !strstr(output, "\n\noptions"),
       "a value past its maximum: exit 2, one line naming it, the short usage on stderr");
    code = P("--flag", "-n", "1k", "-r", "2", "-x", "-0.5");
    ok(code == 0 && strstr(output, "flag 1 n 1000 r 2 x -0.5 s - in - out - o - device 0 given -n 1 -r 1"),
       "a flag, a size, an int and a negative real, each at its place; cli_given says which were given");
    code = P("-x", "-.5");
    ok(code == 0 && strstr(output, "x -0.5 ") && strstr(output, "given -n 0 -r 0"), "-x -.5: a number, not an option");
    code = P("-s", "some text", "--device", "7");
    ok(code == 0 && strstr(output, "s some text ") && strstr(output, "device 7 "), "a text, and --device 7, returned");
    code = P("--device", "1024");
    ok(code == 0 && strstr(output, "device 1024 "), "--device 1024, the largest it takes");
    code = P("--device", "1025");
    ok(code == 2 && strstr(output, "--device: '1025' is too large"), "--device 1025: exit 2");
    write_file("input.txt", "text\n", 5);
    char input[512];
    snprintf(input, sizeof input, "%s", scratch_path("input.txt"));
    code = P("--out=a file.csv", "--in", input);
    ok(code == 0 && strstr(output, "out a file.csv ") && strstr(output, input),
       "--out=FILE as --out FILE; an input file that can be read");
    code = P("--nothing");
    ok(code == 2 && strstr(output, "--nothing: unknown option"), "an unknown option: exit 2, named");
    code = P("word");
    ok(code == 2 && strstr(output, "word: unexpected argument (options start with -)"), "a bare word: exit 2");
    code = P("-r", "3", "-r", "4");
    ok(code == 2 && strstr(output, "-r: given twice"), "an option given twice: exit 2");
    code = P("--device", "1", "--device", "2");
    ok(code == 2 && strstr(output, "--device: given twice"), "--device given twice: exit 2");
    code = P("--flag=1");
    ok(code == 2 && strstr(output, "--flag: '1' takes no value"), "a flag given a value: exit 2");
    code = P("-n");
    ok(code == 2 && strstr(output, "-n: needs a value"), "an option without its value: exit 2");
    code = P("-o", "--flag");
    ok(code == 2 && strstr(output, "-o: '--flag' looks like an option, not a value (a name that starts with '-'"),
       "-o --flag: the value forgotten, refused, saying how to name a folder that starts with -");
    code = P("-r", "-x");
    ok(code == 2 && strstr(output, "-r: '-x' looks like an option, not a value\n"), "-r -x: refused as an option");
    code = P("-r", "-3");
    ok(code == 2 && strstr(output, "-r: '-3' must not be negative"), "-r -3: a number, refused as negative");
    code = P("-s", "");
    ok(code == 2 && strstr(output, "-s: '' must not be empty"), "an empty text: exit 2");
    code = P("--in", "/");
    ok(code == 2 && strstr(output, "--in: '/' is a folder"), "an input that is a folder: exit 2");
    code = P("--in", "/dev/null");
    ok(code == 2 && strstr(output, "--in: '/dev/null' is not a regular file"), "an input that is a device: exit 2");
    code = P("--in", "/no/such/file");
    ok(code == 2 && strstr(output, "--in: '/no/such/file' No such file"), "an input that is not there: exit 2");
}
