/* cli.c: see cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "check.h"
#include "device.h"
#include "output.h"

#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parses "1000000", "1e6", "1M", "2.5k"; whole numbers only when whole != 0. Returns 0, or -1 with why. */
int parse_number(const char *text, int whole, double min, double max, double *value, const char **why)
{
    char *end = NULL;
    errno = 0;
    /* strtod also reads " 5", "+5", "0x1p4", "inf" and "nan": a number here starts with a digit, a
     * point or a minus sign, and is decimal. */
    if (!isdigit((unsigned char)text[0]) && text[0] != '.' && text[0] != '-') {
        *why = "is not a number (write e.g. 1000000, 1e6 or 1M)";
        return -1;
    }
    const char *digits = text + (text[0] == '-');
    double x = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 0.0 : strtod(text, &end);
    if (!end || end == text) {
        *why = "is not a number (write e.g. 1000000, 1e6 or 1M)";
        return -1;
    }
    if (*end == 'k' || *end == 'K')
        x *= 1e3, end++;
    else if (*end == 'M')
        x *= 1e6, end++;
    else if (*end == 'G')
        x *= 1e9, end++;
    if (*end != '\0') {
        *why = "has trailing characters (write e.g. 1000000, 1e6 or 1M)";
        return -1;
    }
    if (errno == ERANGE || !isfinite(x)) {
        *why = "is out of range";
        return -1;
    }
    if (whole && x != floor(x)) {
        *why = "must be a whole number";
        return -1;
    }
    if (x < min) {
        *why = x < 0 ? "must not be negative" : "is too small";
        return -1;
    }
    if (x > max) {
        *why = "is too large";
        return -1;
    }
    *value = x;
    return 0;
}

/* The options the user gave, for cli_given: names from the program's table. */
static const char *given[64];
static int given_count;

/* The one --csv of the course: the entry a program puts in its table when it writes a results file. */
struct cli_option cli_results_option(const char **path)
{
    struct cli_option option = {"--csv", CLI_OUTPUT_FILE, path, 0, 0,
                                "write every measurement printed to FILE, one CSV row each"};
    return option;
}

int cli_given(const char *name)
{
    for (int i = 0; i < given_count; i++)
        if (!strcmp(given[i], name))
            return 1;
    return 0;
}

/* The program's parse: its about line, its table, and what --device N means there (NULL: no --device). */
struct parse {
    const char *program, *about, *device_help;
    const struct cli_option *options;
    int count;
};

static void usage(FILE *out, const struct parse *p)
{
    const char *program = p->program;
    const struct cli_option *options = p->options;
    int count = p->count;
    fprintf(out, "usage: %s [options]\n", program);
    if (out == stderr) {
        fprintf(out, "run '%s -h' for the options\n", program);
        return;
    }
    fprintf(out, "%s\n\noptions:\n", p->about);
    for (int i = 0; i < count; i++) {
        enum cli_kind kind = options[i].kind;
        const char *arg = kind == CLI_FLAG ? "" : kind == CLI_STRING ? " TEXT" : kind == CLI_OUTPUT_DIR ? " DIR"
                        : kind == CLI_INPUT_FILE || kind == CLI_OUTPUT_FILE ? " FILE" : " N";
        char name_and_arg[64];
        snprintf(name_and_arg, sizeof name_and_arg, "%s%s", options[i].name, arg);
        fprintf(out, "  %-17s %s\n", name_and_arg, options[i].help);
    }
    if (p->device_help)
        fprintf(out, "  --device N        %s\n", p->device_help);
    fprintf(out, "  -h, --help        show this help\n");
    if (!p->device_help)  /* a program of every visible GPU: --device would be refused (cli_parse_gpus) */
        fprintf(out, "\nGPUs: every visible one; CUDA_VISIBLE_DEVICES=1,3 shows GPUs 1 and 3 alone (no --device)\n");
    fprintf(out, "\nexit status: 0 all checks passed, 1 a check or CUDA call failed, 2 usage error%s, "
                 "77 no CUDA device\n", p->device_help ? " (a --device past the last GPU too)" : "");
}

static void fail(const struct parse *p, const char *option, const char *text, const char *why)
{
    if (text)
        fprintf(stderr, "%s: option %s: '%s' %s\n", p->program, option, text, why);
    else
        fprintf(stderr, "%s: %s: %s\n", p->program, option, why);
    usage(stderr, p);
    exit(2);
}

void cli_usage_error(const char *program, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fprintf(stderr, "\nrun '%s -h' for the options\n", program);
    exit(2);
}

/* Why a file cannot be read as input, or NULL. A FIFO or a device would block or never end. */
static const char *input_problem(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "is a folder";
    if (!S_ISREG(st.st_mode))
        return "is not a regular file";
    if (access(path, R_OK) != 0)
        return strerror(errno);
    return NULL;
}

static int parse(int argc, char **argv, const struct parse *p)
{
    const struct cli_option *options = p->options;
    int count = p->count;
    int device = 0;
    given_count = 0;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout, p);
            exit(0);
        }
        /* "--csv=FILE" is accepted as well as "--csv FILE". */
        char name[64];
        const char *text = NULL;
        const char *equals = strchr(arg, '=');
        if (!strncmp(arg, "--", 2) && equals && (size_t)(equals - arg) < sizeof name) {
            memcpy(name, arg, equals - arg);
            name[equals - arg] = '\0';
            text = equals + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }

        const struct cli_option *option = NULL;
        for (int i = 0; i < count; i++)
            if (!strcmp(name, options[i].name))
                option = &options[i];
        int is_device = p->device_help && !strcmp(name, "--device");
        if (!option && !is_device)
            fail(p, arg,  NULL,
                 arg[0] == '-' ? "unknown option" : "unexpected argument (options start with -)");
        const char *key = option ? option->name : "--device";
        if (cli_given(key))  /* the last of two would win silently */
            fail(p, key, NULL, "given twice");
        if (given_count < (int)(sizeof given / sizeof given[0]))
            given[given_count++] = key;
        if (option && option->kind == CLI_FLAG) {
            if (text)
                fail(p, name, text, "takes no value");
            *(int *)option->value = 1;
            continue;
        }
        if (!text) {
            if (a + 1 >= argc)
                fail(p, name, NULL, "needs a value");
            text = argv[++a];
            /* "-o --steps 5": the value was forgotten, and the next option would be taken for it (a folder
             * named --steps). A value that starts with '-' is refused, but for a negative number; a file
             * whose name starts with '-' is given as ./-name, or as --csv=-name. */
            enum cli_kind kind = is_device ? CLI_INT : option->kind;
            int is_path = kind == CLI_STRING || kind == CLI_INPUT_FILE || kind == CLI_OUTPUT_FILE ||
                          kind == CLI_OUTPUT_DIR;
            if (text[0] == '-' && (is_path || !(isdigit((unsigned char)text[1]) || text[1] == '.')))
                fail(p, name, text,
                     is_path ? "looks like an option, not a value (a name that starts with '-': ./-name)"
                             : "looks like an option, not a value");
        }

        double x = 0.0;
        const char *why = NULL;
        if (is_device) {
            if (parse_number(text, 1, 0, 1024, &x, &why))
                fail(p, name, text, why);
            device = (int)x;
            continue;
        }
        switch (option->kind) {
        case CLI_STRING:
        case CLI_INPUT_FILE:
        case CLI_OUTPUT_FILE:
        case CLI_OUTPUT_DIR:
            if (!text[0])
                fail(p, name, text, "must not be empty");
            if (option->kind == CLI_INPUT_FILE && (why = input_problem(text)))
                fail(p, name, text, why);
            *(const char **)option->value = text;
            break;
        case CLI_DOUBLE:
            if (parse_number(text, 0, option->min, option->max, &x, &why))
                fail(p, name, text, why);
            *(double *)option->value = x;
            break;
        case CLI_INT:
        case CLI_SIZE:
            if (parse_number(text, 1, option->min, option->max, &x, &why))
                fail(p, name, text, why);
            if (option->kind == CLI_INT)
                *(int *)option->value = (int)x;
            else
                *(long long *)option->value = (long long)x;
            break;
        case CLI_FLAG:
            break;
        }
    }
    /* Output paths, given or default, before any GPU or long host work: a run must not end in
     * "cannot write" after minutes of measuring. Nothing is made yet (output_open makes the folders). */
    for (int i = 0; i < count; i++) {
        int is_dir = options[i].kind == CLI_OUTPUT_DIR;
        if (!is_dir && options[i].kind != CLI_OUTPUT_FILE)
            continue;
        const char *path = *(const char **)options[i].value, *why = NULL;
        if (path && (why = output_path_problem(path, is_dir)))
            fail(p, options[i].name, path, why);
    }
    return device;
}

int cli_parse(int argc, char **argv, const char *about, const struct cli_option *options, int count)
{
    struct parse p = {argv[0], about, "CUDA device to run on (default 0)", options, count};
    return parse(argc, argv, &p);
}

int cli_parse_gpus(int argc, char **argv, const char *about, const struct cli_option *options, int count,
                   const char *device_help)
{
    struct parse p = {argv[0], about, device_help, options, count};
    return parse(argc, argv, &p);
}

/* size_to_fit: an option's default shrinks to what the GPU and the host have room for; a size the user
 * gave does not. */
#define GIB 1073741824.0

long long size_to_fit(const struct device_info *dev, const char *option, long long n, int power,
                      double device_each, double host_each, double device_extra)
{
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    double device_room = (double)free_bytes - DEVICE_RESERVE - device_extra;
    double host = host_available_bytes(), host_room = host > 0 ? 0.9 * host : INFINITY;  /* 10% for the rest */
    double units = pow((double)n, power);
    if (device_each * units <= device_room && host_each * units <= host_room)
        return n;

    long long on_device = largest_size(device_room, device_each, power);
    long long on_host = host > 0 ? largest_size(host_room, host_each, power) : LLONG_MAX;
    long long fits = on_device < on_host ? on_device : on_host;
    char need[256];
    if (on_host < on_device)
        snprintf(need, sizeof need, "needs %.2f GiB of host memory, and %.2f GiB are available",
                 host_each * units / GIB, host / GIB);
    else
        snprintf(need, sizeof need, "needs %.2f GiB on the GPU, and %.2f GiB of %.2f GiB are free",
                 (device_each * units + device_extra + DEVICE_RESERVE) / GIB, free_bytes / GIB, total / GIB);
    if (cli_given(option) || fits < 1) {
        fprintf(stderr, "not enough memory on %s: %s %lld %s; ", dev->name, option, n, need);
        if (fits >= 1)
            fprintf(stderr, "the largest %s that fits is %lld\n", option, fits);
        else
            fprintf(stderr, "not even %s 1 fits\n", option);
        exit(1);
    }
    printf("note: the default %s %lld %s: using %s %lld instead\n", option, n, need, option, fits);
    return fits;
}
