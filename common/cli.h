/* cli.h: a strict command line from a table of options.
 *   long long n = 1000000; const char *csv = NULL;
 *   struct cli_option options[] = {
 *       {"-n", CLI_SIZE, &n, 1, 1e10, "number of elements (1000000, 1e6 or 1M)"},
 *       cli_results_option(&csv),    --csv FILE: the results file, one row per measurement printed
 *   };
 *   int device = cli_parse(argc, argv, "what the program shows", options, COUNT_OF(options));
 *   results_to(csv);                 stats.h writes the rows there (NULL: no file)
 * -h/--help (exit 0) and --device ID (returned) come with every program. An unknown option, an option
 * given twice or a bad value prints one line naming it, then the usage line, and exits 2; so does a
 * value that looks like an option ("-o --steps": a path that starts with '-' is given as ./-name), an
 * output path where no file can be made or an existing file the user may not write (checked for
 * defaults too, before any GPU work, and without making any folder: output.h) and an input that is not
 * a readable regular file. cli_given("-n") says whether the user gave -n, or the
 * program may change its default (size_to_fit, below). cli_usage_error(argv[0], "...") ends
 * with exit 2 for a conflict between options that the table cannot express. cli_parse adds no option
 * but -h and --device: --csv is in the table of a program that writes a results file, and nowhere else.
 * A program of several GPUs calls cli_parse_gpus: with a text, --device N means what it says there
 * (heat_mpi: the first GPU of a machine's ranks); with NULL, the program has no --device (it uses every
 * visible GPU: peers, multi_gpu), so --device is an unknown option and -h names CUDA_VISIBLE_DEVICES.
 * A file in a program's own columns has an option of its own name (--sweep-csv FILE, CONTRIBUTING.md).
 *   n = size_to_fit(&dev, "-n", n, 1, 4.0, 4.0, 0);   the article's n, or the largest that fits */
#ifndef COMMON_CLI_H
#define COMMON_CLI_H
#ifdef __cplusplus
extern "C" {
#endif

enum cli_kind {
    CLI_FLAG,    /* int, set to 1 */
    CLI_SIZE,    /* long long: 1000000, 1e6, 1M, 4k, 2G; a whole number in [min, max] */
    CLI_INT,     /* int, whole number in [min, max] */
    CLI_DOUBLE,  /* double in [min, max] */
    CLI_STRING,       /* const char *: any text */
    CLI_INPUT_FILE,   /* const char *: a regular file that can be read */
    CLI_OUTPUT_FILE,  /* const char *: a file the program writes; its folder can be made (made when written) */
    CLI_OUTPUT_DIR    /* const char *: a folder the program writes files in; can be made (made when written) */
};

struct cli_option {
    const char *name;  /* "-n", "-r" or "--csv" */
    enum cli_kind kind;
    void *value;
    double min, max;
    const char *help;
};

/* The number of elements of a literal array (an option table, a list of sizes). */
#define COUNT_OF(array) ((int)(sizeof(array) / sizeof((array)[0])))

int cli_parse(int argc, char **argv, const char *about, const struct cli_option *options, int count);
int cli_parse_gpus(int argc, char **argv, const char *about, const struct cli_option *options, int count,
                   const char *device_help);
int cli_given(const char *name);  /* 1 if the user gave this option, so a default may be changed */
struct cli_option cli_results_option(const char **path);  /* --csv FILE, the same in every program */
void cli_usage_error(const char *program, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
int parse_number(const char *text, int whole, double min, double max, double *value, const char **why);

/* The size to run. n is the article's default, or what the user gave with `option` (cli_given). The
 * memory it takes is device_each x n^power + device_extra bytes on the GPU and host_each x n^power on
 * the host (power 1 for arrays of n elements, 2 for n x n matrices). A default that does not fit is
 * replaced by the largest size that does, said in one line; a size the user gave that does not fit
 * ends the program: what it needs, what is free, the largest that fits, exit 1. */
struct device_info;
long long size_to_fit(const struct device_info *dev, const char *option, long long n, int power,
                      double device_each, double host_each, double device_extra);

#ifdef __cplusplus
}
#endif
#endif
