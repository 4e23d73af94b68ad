/* unit_output.c: unit tests of what the programs write out: the SGEMM sweep's checks (sweep.h), the
 * results file (stats.h), output files and their protections (output.h), and the options that name them
 * (cli.h). Part of tests/unit_common (unit.h: the harness in unit_common.c). */
#define _POSIX_C_SOURCE 200809L
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/output.h"
#include "../common/stats.h"
#include "../common/sweep.h"
#include "unit.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* sweep_compare on a 2 x 2 product: the reference {1, 2, 3, 4}, got the same but for element (1, 1),
 * off by `off`; |row i of A| = |column j of B| = 2. Exits with the failures counted. */
static void compare_2x2(enum sweep_check how, float off)
{
    float want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 4};
    double norms[2] = {2.0, 2.0};
    struct sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.check = how;
    sw.n = 2;
    sw.got = got;
    sw.want = want;
    sw.row_norm = sw.col_norm = norms;
    sw.ref_norm = 30.0;
    sw.ref_max = 4.0;
    got[3] += off;
    double rel = sweep_compare(&sw, "planted");
    exit(sw.failures * 10 + (rel == sw.worst || isnan(rel)));
}
static void fp32_same(void) { compare_2x2(SWEEP_FP32, 0.0f); }
static void fp32_rounding(void) { compare_2x2(SWEEP_FP32, 0x1p-20f); }  /* 2^-20: fp32's rounding */
static void fp32_off(void) { compare_2x2(SWEEP_FP32, 1e-3f); }
static void fp32_unwritten(void) { compare_2x2(SWEEP_FP32, NAN); }
static void tf32_within(void) { compare_2x2(SWEEP_TF32, 4e-3f); }  /* bound: (2^-9 + 8 2^-24) x 4 = 7.8e-3 */
static void tf32_outside(void) { compare_2x2(SWEEP_TF32, 1e-2f); }
static void tf32_unwritten(void) { compare_2x2(SWEEP_TF32, NAN); }

/* The sweeps of chapter 5 (sweep.h): their sizes, and their checks on the host. */
void test_sweep(void)
{
    int sizes[SWEEP_MAX_SIZES];
    int count = sweep_sizes(130, sizes);
    ok(count == 2 && sizes[0] == 127 && sizes[1] == 130, "sweep_sizes: --max 130 is 127, then 130");
    count = sweep_sizes(1, sizes);
    ok(count == 1 && sizes[0] == 1, "sweep_sizes: --max 1 is one size, 1");
    count = sweep_sizes(8192, sizes);
    ok(count == 10 && sizes[3] == 1000 && sizes[8] == 4097 && sizes[9] == 8192,
       "sweep_sizes: 8192 ends the powers of two and the awkward sizes, once");
    count = sweep_sizes(16384, sizes);
    ok(count == 11 && sizes[10] == 16384, "sweep_sizes: the largest, 16384, has room");
    char *out = NULL;
    int code = in_child(fp32_same, NULL, &out);
    ok(code == 1 && !strstr(out, "check:"), "sweep_compare, fp32: the same product passes, error 0 counted as worst");
    code = in_child(fp32_rounding, NULL, &out);
    ok(code == 1 && !strstr(out, "check:"), "sweep_compare, fp32: an element off by fp32's rounding passes");
    code = in_child(fp32_off, NULL, &out);
    ok(code == 11 &&
       strstr(out, "check: FAIL (planted at n = 2: relative error 1.8e-04, worst element off by 1.0e-03)"),
       "sweep_compare, fp32: 1.8e-4 of the whole fails, printed with the element's error");
    code = in_child(fp32_unwritten, NULL, &out);
    ok(code == 11 && strstr(out, "check: FAIL (planted"), "sweep_compare, fp32: a NaN (an element nobody wrote) fails");
    code = in_child(tf32_within, NULL, &out);
    ok(code == 1 && !strstr(out, "check:"), "sweep_compare, TF32: an element within its TF32 bound passes");
    code = in_child(tf32_outside, NULL, &out);
    ok(code == 11 && strstr(out, "1 elements outside the TF32 bound"),
       "sweep_compare, TF32: an element past its bound fails");
    code = in_child(tf32_unwritten, NULL, &out);
    ok(code == 11 && strstr(out, "check: FAIL (planted"), "sweep_compare, TF32: a NaN fails");
}

/* Files in the scratch folder "out" whose name starts with a dot: temporary files left behind. */
static int leftovers(void)
{
    DIR *d = opendir(scratch_path("out"));
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        count += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return count;
}


/* The results file of --csv (results_to): each print_* line a row, the file written only by exit_status(0). */
static void results_of_a_failed_run(void)
{
    results_to(scratch_path("results/failed.csv"));
    struct stats s = {3, 2.0, 2.0, 0.0, 2.0, 2.0};
    print_time("kernel", "kernel", s);
    exit(exit_status(1));  /* a check failed: no file */
}

static void a_key_with_a_space(void)
{
    struct stats s = {3, 2.0, 2.0, 0.0, 2.0, 2.0};
    print_time("copy bound", "copy bound", s);  /* no results_to: the key is checked all the same */
}

static void keys_at_the_ends(void)
{
    struct stats s = {3, 2.0, 2.0, 0.0, 2.0, 2.0};
    print_time("a_z09", "first a, then z, 0 and 9", s);
    print_time("z_a90", "first z", s);
}

static void results_of_a_good_run(void)
{
    const char *path = scratch_path("results/t.csv");
    results_to(path);
    struct stats s = {3, 2.0, 2.5, 0.5, 1.5, 3.0};
    print_bandwidth("tree", "kernel, tree", s, 4e9, 4000.0, "of copy");  /* 2000 GB/s, 50% */
    print_flops("gemm", "gemm", s, 2e12, 0, "");
    print_time("cpu_1", "CPU", s);
    record_value("transfer_bound", "transfer bound", 7.25, "ms");
    if (access(path, F_OK) == 0)
        exit(3);  /* the file must not appear before exit_status */
    exit(exit_status(0));
}

static void parse_csv_without_the_option(void)
{
    int n = 0;
    char *argv[] = {"prog", "--csv", "x.csv", NULL};
    struct cli_option options[] = {{"-n", CLI_INT, &n, 0, 10, "N"}};
    cli_parse(3, argv, "test", options, COUNT_OF(options));
}

void test_results(void)
{
    char path[512];  /* scratch_path's buffer is reused */
    snprintf(path, sizeof path, "%s", scratch_path("results/t.csv"));
    char *output = NULL;
    ok(in_child(results_of_a_good_run, NULL, &output) == 0, "--csv: exit_status(0) returns 0, no file before it");
    const char *text = read_text(path);
    ok(strstr(text, "\nkey,measurement,runs,median_ms,mean_ms,std_ms,min_ms,max_ms,rate,unit,percent,of\n"
                    "tree,kernel; tree,3,2,2.5,0.5,1.5,3,2000,GB/s,50,of copy\n"
                    "gemm,gemm,3,2,2.5,0.5,1.5,3,1e+06,GFLOP/s,,\n"
                    "cpu_1,CPU,3,2,2.5,0.5,1.5,3,,,,\n"
                    "transfer_bound,transfer bound,,,,,,,7.25,ms,,\n") != NULL,
       "--csv: one row per line printed, its key first, commas in labels made semicolons, then record_value's");
    int code = in_child(a_key_with_a_space, NULL, &output);
    ok(code == 1 && strstr(output, "results: the key 'copy bound' is not a snake_case name"),
       "--csv: a key that is not snake_case ends the run, exit 1, with or without a file");
    code = in_child(keys_at_the_ends, NULL, &output);
    ok(code == 0, "--csv: keys that start with a or z and hold 0 and 9 are snake_case names");
    code = in_child(results_of_a_failed_run, NULL, &output);
    ok(code == 1 && access(scratch_path("results/failed.csv"), F_OK) != 0 &&
           !strstr(read_text(scratch_path("results/failed.csv")), "kernel"),
       "--csv: a run whose check failed exits 1 and leaves no file");
    const char *csv = NULL;
    char *argv[] = {"prog", "--csv", path, NULL};
    struct cli_option options[] = {{"-n", CLI_INT, &code, 0, 10, "N"}, cli_results_option(&csv)};
    cli_parse(3, argv, "test", options, COUNT_OF(options));
    ok(csv && !strcmp(csv, path) && options[1].kind == CLI_OUTPUT_FILE,
       "cli: cli_results_option is --csv FILE, an output file, given to the program's variable");
    code = in_child(parse_csv_without_the_option, NULL, &output);
    ok(code == 2 && strstr(output, "--csv: unknown option"),
       "cli: cli_parse adds no --csv: a table without it refuses --csv FILE, exit 2");
}

/* Children for test_output: each writes out/t.csv, over an old one, and fails a different way. */
static void write_rows(void)
{
    FILE *f = csv_open(scratch_path("out/t.csv"), "i,x");
    for (int i = 0; i < 2000; i++)
        csv_row(f, "%d,%d", i, i * i);
    csv_close(f);
}
static void write_past_file_size_limit(void)
{
    struct rlimit limit = {8192, 8192};
    setrlimit(RLIMIT_FSIZE, &limit);  /* ulimit -f: writes past 8 KiB fail with EFBIG */
    write_rows();
}
static void exit_mid_write(void)
{
    FILE *f = csv_open(scratch_path("out/t.csv"), "i,x");
    csv_row(f, "1,1");
    exit(1);  /* as a failed CUDA call does */
}
static void interrupted_mid_write(void)
{
    FILE *f = csv_open(scratch_path("out/t.csv"), "i,x");
    csv_row(f, "1,1");
    fflush(f);
    raise(SIGINT);  /* Ctrl-C */
}
static void write_to_dev_full(void)
{
    FILE *f = csv_open("/dev/full", "i,x");
    csv_row(f, "1,1");
    csv_close(f);
}
static void parse_output_under_a_file(void)
{
    const char *csv = NULL;
    char path[600];
    snprintf(path, sizeof path, "%s/sub.csv", scratch_path("out/t.csv"));
    char *argv[] = {"prog", "--csv", path, NULL};
    struct cli_option options[] = {{"--csv", CLI_OUTPUT_FILE, &csv, 0, 0, "FILE"}};
    cli_parse(3, argv, "test", options, 1);
}
static void parse_default_output_folder_is_a_file(void)
{
    const char *dir = scratch_path("out/t.csv");
    char *argv[] = {"prog", NULL};
    struct cli_option options[] = {{"-o", CLI_OUTPUT_DIR, &dir, 0, 0, "DIR"}};
    cli_parse(1, argv, "test", options, 1);
}
static void parse_input_folder(void)
{
    const char *input = NULL;
    char *argv[] = {"prog", "--input", scratch, NULL};
    struct cli_option options[] = {{"--input", CLI_INPUT_FILE, &input, 0, 0, "FILE"}};
    cli_parse(3, argv, "test", options, 1);
}
static void parse_repeated_option(void)
{
    long long n = 0;
    char *argv[] = {"prog", "-n", "5", "-n", "6", NULL};
    struct cli_option options[] = {{"-n", CLI_SIZE, &n, 1, 10, "size"}};
    cli_parse(5, argv, "test", options, 1);
}

void test_output(void)
{
    char *out = NULL;
    int code = in_child(write_rows, NULL, &out);
    const char *old = read_text(scratch_path("out/t.csv"));
    ok(code == 0 && strstr(old, "1999,3996001\n") && leftovers() == 0,
       "output_open makes the folder; the file appears whole, no temporary file left");
    static char before[65536];
    snprintf(before, sizeof before, "%s", old);
    struct { void (*fn)(void); int code; const char *says, *name; } failing[] = {
        {write_past_file_size_limit, 1, "File too large", "a write past ulimit -f"},
        {exit_mid_write, 1, "", "exit(1) in the middle of writing"},
        {interrupted_mid_write, 128 + SIGINT, "", "Ctrl-C in the middle of writing"},
    };
    for (int i = 0; i < (int)(sizeof failing / sizeof failing[0]); i++) {
        code = in_child(failing[i].fn, NULL, &out);
        char name[160];
        snprintf(name, sizeof name, "%s: exit %d, old file intact, no temporary file", failing[i].name,
                 failing[i].code);
        ok(code == failing[i].code && strstr(out, failing[i].says) &&
               !strcmp(read_text(scratch_path("out/t.csv")), before) && leftovers() == 0, name);
        if (code != failing[i].code)
            printf("# exit %d: %s\n", code, out);
    }
    code = in_child(write_to_dev_full, NULL, &out);
    ok(code == 1 && strstr(out, "cannot write /dev/full: No space left"),
       "a device path is written in place, and /dev/full's failure is reported: exit 1");

    ok(output_path_problem(scratch_path("out/new/a.csv"), 0) == NULL, "a new file in a new folder is fine");
    const char *why = output_path_problem(scratch_path("out"), 0);
    ok(why && strstr(why, "is a folder"), "a folder given as an output file is refused");
    why = output_path_problem(scratch_path("out/t.csv/x.csv"), 0);
    ok(why && strstr(why, "cannot be made"), "a file under a file is refused");
    why = output_path_problem(scratch_path("out/t.csv"), 1);
    ok(why && strstr(why, "is not a folder"), "a file given as an output folder is refused");
    why = output_path_problem("/proc/no/such.csv", 0);
    ok(why != NULL, "a folder that cannot be made (under /proc) is refused");
    ok(output_path_problem("/dev/null", 0) == NULL, "/dev/null is a fine output");
    if (geteuid() != 0) {  /* root writes into a read-only folder anyway */
        mkdir(scratch_path("read-only"), 0500);
        why = output_path_problem(scratch_path("read-only/a.csv"), 0);
        ok(why && strstr(why, "cannot be written"), "a read-only folder is refused");
        chmod(scratch_path("read-only"), 0700);
    } else {
        skip("a read-only folder is refused", "running as root, for whom no folder is read-only");
    }

    code = in_child(parse_output_under_a_file, NULL, &out);
    ok(code == 2 && strstr(out, "option --csv:") && strstr(out, "cannot be made"),
       "cli_parse: an unusable --csv path is a usage error, exit 2");
    code = in_child(parse_default_output_folder_is_a_file, NULL, &out);
    ok(code == 2 && strstr(out, "option -o:") && strstr(out, "not a folder"),
       "cli_parse checks a default output folder too");
    code = in_child(parse_input_folder, NULL, &out);
    ok(code == 2 && strstr(out, "option --input:") && strstr(out, "is a folder"),
       "cli_parse: a folder as --input is a usage error");
    code = in_child(parse_repeated_option, NULL, &out);
    ok(code == 2 && strstr(out, "-n: given twice"), "cli_parse: an option given twice is a usage error");
}

/* Children for test_protections: what a shell's > protects, output.h and cli.h protect too. */
static char protected_path[512];  /* an existing file the child may not write */
static void become_another_user(void)
{
    /* Root may write any file, as with >: the child runs as nobody (65534), for whom it is another's. */
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        exit(99);
}
static void replace_protected_file(void)
{
    become_another_user();
    FILE *f = output_open(protected_path);
    fprintf(f, "replaced\n");
    output_close(f);
}
static void parse_protected_file(void)
{
    become_another_user();
    const char *csv = NULL;
    char *argv[] = {"prog", "--csv", protected_path, NULL};
    struct cli_option options[] = {{"--csv", CLI_OUTPUT_FILE, &csv, 0, 0, "FILE"}};
    cli_parse(3, argv, "test", options, 1);
}
static void replace_private_file(void)
{
    umask(022);
    FILE *f = output_open(scratch_path("out/private.csv"));
    fprintf(f, "new\n");
    output_close(f);
}
static void parse_refused_after_an_output_folder(void)
{
    const char *dir = NULL, *csv = NULL;
    char folder[512], under_a_file[512];
    snprintf(folder, sizeof folder, "%s", scratch_path("refused/dir"));
    snprintf(under_a_file, sizeof under_a_file, "%s", scratch_path("out/t.csv/x.csv"));
    char *argv[] = {"prog", "-o", folder, "--csv", under_a_file, NULL};
    struct cli_option options[] = {{"-o", CLI_OUTPUT_DIR, &dir, 0, 0, "DIR"},
                                   {"--csv", CLI_OUTPUT_FILE, &csv, 0, 0, "FILE"}};
    cli_parse(5, argv, "test", options, 2);
}
static void parse_option_as_csv(void)
{
    const char *csv = NULL;
    int reps = 1;
    char *argv[] = {"prog", "--csv", "-r", "3", NULL};
    struct cli_option options[] = {{"--csv", CLI_OUTPUT_FILE, &csv, 0, 0, "FILE"}, {"-r", CLI_INT, &reps, 1, 9, "R"}};
    cli_parse(4, argv, "test", options, 2);
}
static void parse_option_as_folder(void)
{
    const char *dir = NULL;
    int steps = 1;
    char *argv[] = {"prog", "-o", "--steps", "5", NULL};
    struct cli_option options[] = {{"-o", CLI_OUTPUT_DIR, &dir, 0, 0, "DIR"}, {"--steps", CLI_INT, &steps, 1, 9, "S"}};
    cli_parse(4, argv, "test", options, 2);
}
static void parse_option_as_number(void)
{
    int reps = 1;
    const char *csv = NULL;
    char *argv[] = {"prog", "-r", "--csv", "x.csv", NULL};
    struct cli_option options[] = {{"-r", CLI_INT, &reps, 1, 9, "R"}, {"--csv", CLI_OUTPUT_FILE, &csv, 0, 0, "FILE"}};
    cli_parse(4, argv, "test", options, 2);
}
static void parse_negative_number(void)
{
    double shift = 0.0;
    char *argv[] = {"prog", "--shift", "-0.5", NULL};
    struct cli_option options[] = {{"--shift", CLI_DOUBLE, &shift, -1, 1, "X"}};
    cli_parse(3, argv, "test", options, 1);
    exit(shift == -0.5 ? 0 : 3);
}

void test_protections(void)
{
    char *out = NULL;
    struct stat st;
    /* A path that can be made is checked, and nothing is made: not its folders, not a probe left. */
    ok(output_path_problem(scratch_path("new/deeper/a.csv"), 0) == NULL &&
           output_path_problem(scratch_path("new2/dir"), 1) == NULL && access(scratch_path("new"), F_OK) != 0 &&
           access(scratch_path("new2"), F_OK) != 0,
       "output_path_problem: a new file or folder in new folders is fine, and no folder is made");
    int code = in_child(parse_refused_after_an_output_folder, NULL, &out);
    ok(code == 2 && strstr(out, "option --csv:") && access(scratch_path("refused"), F_OK) != 0,
       "cli_parse: -o NEW --csv refused: exit 2, and the folder of -o is not made");

    /* A replaced file keeps its mode: 0600 stays 0600 whatever the umask. */
    write_file("out/private.csv", "old\n", 4);
    chmod(scratch_path("out/private.csv"), 0600);
    code = in_child(replace_private_file, NULL, &out);
    ok(code == 0 && stat(scratch_path("out/private.csv"), &st) == 0 && (st.st_mode & 07777) == 0600 &&
           !strcmp(read_text(scratch_path("out/private.csv")), "new\n"),
       "output_open: a replaced 0600 file is still 0600 (umask 022)");
    if (code != 0 || (st.st_mode & 07777) != 0600)
        printf("# exit %d, mode %o: %s\n", code, (unsigned)(st.st_mode & 07777), out);

    /* An existing file the user may not write, in a folder where they may: the rename would replace it,
     * a shell's > would not. As root, the child is nobody and the file is root's. */
    mkdir(scratch_path("shared"), 0777);
    chmod(scratch_path("shared"), 0777);
    chmod(scratch, 0711);
    snprintf(protected_path, sizeof protected_path, "%s", scratch_path("shared/kept.csv"));
    write_file("shared/kept.csv", "kept\n", 5);
    chmod(protected_path, 0444);
    code = in_child(parse_protected_file, NULL, &out);
    if (code == 99) {
        skip("cli_parse: --csv FILE that the user may not write: exit 2", "root, and setuid(nobody) failed");
        skip("output_open: a file the user may not write is not replaced: exit 1", "root, and setuid(nobody) failed");
    } else {
        ok(code == 2 && strstr(out, "option --csv:") && strstr(out, "cannot be written: Permission denied"),
           "cli_parse: --csv FILE that the user may not write: exit 2, cannot be written");
        if (code != 2)
            printf("# exit %d: %s\n", code, out);
        code = in_child(replace_protected_file, NULL, &out);
        ok(code == 1 && strstr(out, "cannot write") && strstr(out, "Permission denied") &&
               !strcmp(read_text(protected_path), "kept\n"),
           "output_open: a file the user may not write is not replaced: exit 1, the file as it was");
        if (code != 1)
            printf("# exit %d: %s\n", code, out);
    }
    chmod(scratch, 0700);

    /* A forgotten value: the next option is not taken for it. */
    code = in_child(parse_option_as_csv, NULL, &out);
    ok(code == 2 && strstr(out, "option --csv: '-r' looks like an option") && strstr(out, "./-name"),
       "cli_parse: --csv -r is refused, exit 2, with how to name a file -r");
    code = in_child(parse_option_as_folder, NULL, &out);
    ok(code == 2 && strstr(out, "option -o: '--steps' looks like an option") && access("--steps", F_OK) != 0,
       "cli_parse: -o --steps is refused, exit 2, no folder --steps");
    code = in_child(parse_option_as_number, NULL, &out);
    ok(code == 2 && strstr(out, "option -r: '--csv' looks like an option"), "cli_parse: -r --csv is refused, exit 2");
    code = in_child(parse_negative_number, NULL, &out);
    ok(code == 0, "cli_parse: a negative number is still a value (--shift -0.5)");
}
