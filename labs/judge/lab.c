/* lab.c: see lab.h. The judge's options and its start, a call's arguments, the checks, the hints and the
 * report, the end. The runner's process and the channel to it are channel.c's, the timed runs timed.c's;
 * what the three share is in lab_internal.h. */
#include "lab_internal.h"

#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* ==== Options, the device ==== */

void lab_start(struct lab *lab, int argc, char **argv, const char *title, int *reps)
{
    memset(lab, 0, sizeof *lab);
    lab->pick = LAB_NO_PICK;
    /* Everything after "--" is the runner's command line: a sanitizer's, then the runner's own. */
    int own = argc;
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--")) {
            own = a;
            break;
        }
    const char *seed = NULL;
    int seed_stdin = 0;
    lab->timeout = 60;
    lab->ranks = 1;
    struct cli_option options[] = {
        {"-r", CLI_INT, reps, 1, 10000, "timed runs"},
        {"--small", CLI_FLAG, &lab->small, 0, 0, "the small sizes only, no timing (for compute-sanitizer)"},
        {"--time", CLI_FLAG, &lab->time, 0, 0, "the timed runs only (each checked on a sample of its output)"},
        {"--seed", CLI_STRING, &seed, 0, 0, "the seed every input comes from (default: a new one)"},
        {"--seed-stdin", CLI_FLAG, &seed_stdin, 0, 0, "the seed (and step 2's pick) on stdin: labs/grade's way"},
        {"--timeout", CLI_INT, &lab->timeout, 1, 86400, "seconds the runner may take in all (60)"},
        {"--ranks", CLI_INT, &lab->ranks, 1, 64, "the runner's MPI processes, for a lab of several ranks (1)"},
        {"--channel-dir", CLI_STRING, &lab->channel_dir, 0, 0, "the folder of the runner's socket (/tmp)"},
    };
    int device = cli_parse(own, argv, title, options, COUNT_OF(options));
    if (own >= argc - 1) {
        fprintf(stderr, "%s: no runner: %s [options] -- RUNNER (labs/grade starts the judge)\n", argv[0], argv[0]);
        exit(2);
    }
    lab->runner_argv = argv + own + 1;
    if (seed || seed_stdin) {
        /* --seed-stdin: the seed is the first number on the judge's standard input, and the second (if any)
         * picks the larger size a --small run takes: labs/grade's way, so that no command line holds them */
        char line[64] = "", *end = NULL;
        const char *text = seed;
        if (seed_stdin)
            text = fgets(line, sizeof line, stdin) ? line : "";
        errno = 0;
        lab->seed = strtoull(text, &end, 10);
        if (!isdigit((unsigned char)text[0]) || errno || (*end && !isspace((unsigned char)*end))) {
            fprintf(stderr, "%s: option --seed: '%s' is not a whole number\n", argv[0], text);
            exit(2);
        }
        char *after = NULL;
        unsigned long long pick = strtoull(end, &after, 10);
        if (after != end)
            lab->pick = pick;
    }
    FILE *f = fopen("/dev/urandom", "rb");
    unsigned long long fresh[2];
    if (!f || fread(fresh, sizeof fresh, 1, f) != 1) {
        fresh[0] = (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 32;
        fresh[1] = lab_bits(fresh[0] ^ (unsigned long long)clock(), 7, 0);
    }
    if (f)
        fclose(f);
    if (!seed && !seed_stdin)
        lab->seed = fresh[0];  /* 64 bits: a file that sees inputs cannot search its way back to the seed */
    lab->secret = fresh[1];
    /* Nothing of the judge can be read or traced by another process of this user (the runner is one):
     * its memory, its open files, its output. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    runner_setup(lab);
    cudaSetDeviceFlags(cudaDeviceScheduleSpin);  /* the judge's clock waits on the GPU too */
    device_start(device, &lab->dev);
    printf("%s\n", title);
    printf("judge-started\n");  /* (the seed is printed at the end, once the runner is gone) */
}

void lab_big_sizes(struct lab *lab, int count)
{
    lab->big_sizes = count > 0 ? count : 1;
}

int lab_skip(struct lab *lab, long long elements)
{
    if (!lab->small || elements <= LAB_SMALL_ELEMENTS)
        return 0;
    if (lab->pick == LAB_NO_PICK)  /* (racecheck's run: every shared-memory access watched, the small sizes) */
        return 1;
    int count = lab->big_sizes > 0 ? lab->big_sizes : 1;
    return (unsigned long long)lab->big_seen++ != lab->pick % (unsigned long long)count;
}

unsigned long long lab_fresh(struct lab *lab)
{
    /* A stream of its own for each kind of run: the timed runs never repeat a correctness call's inputs.
     * The draw is whitened by a second value of the seed's: lab_bits alone can be run backwards (its
     * mixer is a bijection), so a file that recovered one call's seed from its inputs would know the
     * next; with the whitening it would need the master seed, 64 bits, which no search reaches. */
    unsigned stream = 0x5eed0 + (lab->time ? 1 : 0) + (lab->small ? 2 : 0);
    return lab_bits(lab->seed, stream, lab->calls++) ^ lab_bits(lab->seed, 0x5eedf, stream);
}

/* ==== Calls ==== */

struct lab_arg_wire *next_arg(struct lab_call *c, uint32_t kind)
{
    if (c->count >= LAB_MAX_ARGS) {
        fprintf(stderr, "judge: more than %d arguments\n", LAB_MAX_ARGS);
        exit(1);
    }
    c->in[c->count] = NULL;
    c->out[c->count] = NULL;
    struct lab_arg_wire *a = &c->arg[c->count++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return a;
}

void lab_call_start(struct lab_call *c)
{
    memset(c, 0, sizeof *c);
}

void lab_int(struct lab_call *c, long long value)
{
    next_arg(c, LAB_INT)->i = value;
}

void lab_float(struct lab_call *c, double value)
{
    next_arg(c, LAB_FLOAT)->f = value;
}

static void buffer(struct lab_call *c, uint32_t kind, const void *in, void *got, size_t bytes)
{
    struct lab_arg_wire *a = next_arg(c, kind);
    a->bytes = bytes;
    a->flags = (in ? LAB_FILL : 0) | (got ? LAB_RETURN : 0);
    c->in[c->count - 1] = in;
    c->out[c->count - 1] = got;
}

void lab_in(struct lab_call *c, const void *host, size_t bytes) { buffer(c, LAB_DEVICE, host, NULL, bytes); }
void lab_out(struct lab_call *c, const void *in, void *got, size_t bytes) { buffer(c, LAB_DEVICE, in, got, bytes); }
void lab_scratch(struct lab_call *c, size_t bytes) { buffer(c, LAB_DEVICE, NULL, NULL, bytes); }
void lab_host_in(struct lab_call *c, const void *host, size_t bytes) { buffer(c, LAB_HOST, host, NULL, bytes); }
void lab_host_out(struct lab_call *c, void *got, size_t bytes) { buffer(c, LAB_HOST, NULL, got, bytes); }

/* ==== Checks, hints, the report ==== */

/* "element 5" or "element (row 2, column 7)". */
static void say_where(char *text, size_t size, long long i, long long cols)
{
    if (cols > 0)
        snprintf(text, size, "element (row %lld, column %lld)", i / cols, i % cols);
    else
        snprintf(text, size, "element %lld", i);
}

/* After a failed check: what the wrong elements have in common, when it is a known signature. */
static void hint_pattern(struct lab *lab, long long first, long long wrong, long long poisoned, long long n)
{
    if (poisoned == wrong)
        lab_hint(lab, "every wrong element still holds the poison the output was filled with: no thread wrote "
                      "it. Do your threads (or your loop) reach every index up to n - 1?");
    else if (n > 64 && first > 0 && first >= n - n / 8 - 32)  /* in 64 elements or fewer, all is tail */
        lab_hint(lab, "only the last elements are wrong (from %lld of %lld): look at the tail, the part of n "
                      "that is not a whole number of blocks or tiles", first, n);
    else if (wrong == n - 1 && first == 1)
        lab_hint(lab, "only the first element is right: did every result come from the first block's, or the "
                      "first thread's, work?");
}

/* The checks: got against want, element by element. `at`, when given, is where each element sits in an
 * output of `size` elements (a timed run's sample): the report names that position. */
static int compare(struct lab *lab, const char *what, const float *got_f, const float *want_f, const unsigned *got_u,
                 const unsigned *want_u, long long n, const long long *at, long long size, long long cols,
                 double tolerance, const char *why)
{
    long long wrong = 0, first = -1, poisoned = 0;
    for (long long i = 0; i < n; i++) {
        int bad;
        if (got_f) {
            double error = fabs((double)got_f[i] - want_f[i]);
            bad = !(error <= tolerance * fabs((double)want_f[i]));  /* NaN is wrong */
            poisoned += bad && isnan(got_f[i]);
        } else {
            bad = got_u[i] != want_u[i];
            poisoned += bad && got_u[i] == 0xffffffffu;
        }
        if (bad && first < 0)
            first = i;
        wrong += bad;
    }
    const char *of = at ? "sampled elements" : "elements";
    if (!wrong) {
        if (!lab->quiet) {
            if (got_f)
                printf("  %s: PASS (every element within %.1e, relative)\n", what, tolerance);
            else
                printf("  %s: PASS (every element exact)\n", what);
        }
        return 0;
    }
    if (lab->failures >= 3) {  /* three full reports say enough; the rest in a line each */
        printf("  %s: FAIL, %lld of %lld %s wrong\n", what, wrong, n, of);
        lab->failures++;
        return 1;
    }
    char where[96];
    say_where(where, sizeof where, at ? at[first] : first, cols);
    if (got_f)
        printf("  %s: FAIL, %lld of %lld %s wrong; first: %s, expected %.9g, got %.9g\n"
               "    (tolerance %.1e relative: %s)\n", what, wrong, n, of, where, want_f[first], got_f[first],
               tolerance, why);
    else
        printf("  %s: FAIL, %lld of %lld %s wrong; first: %s, expected %u, got %u (integers: exact)\n", what, wrong, n,
               of, where, want_u[first], got_u[first]);
    if (!at)
        hint_pattern(lab, first, wrong, poisoned, n);
    else if (poisoned == wrong)
        lab_hint(lab, "every wrong element of this timed run still holds the poison the judge filled the output with: "
                      "no thread wrote it this time");
    (void)size;
    lab->failures++;
    return 1;
}

int lab_check_floats(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                     long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, n, NULL, n, cols, tolerance, why);
}

int lab_check_uints(struct lab *lab, const char *what, const unsigned *got, const unsigned *want, long long n,
                    long long cols)
{
    return compare(lab, what, NULL, NULL, got, want, n, NULL, n, cols, 0, NULL);
}

int lab_check_floats_at(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                        const long long *at, long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, n, at, n, cols, tolerance, why);
}

int lab_check_sample_floats(struct lab *lab, const char *what, const struct lab_sample *s, const float *got,
                            const float *want, long long cols, double tolerance, const char *why)
{
    return compare(lab, what, got, want, NULL, NULL, s->count, s->index, s->n, cols, tolerance, why);
}

int lab_check_sample_uints(struct lab *lab, const char *what, const struct lab_sample *s, const unsigned *got,
                           const unsigned *want, long long cols)
{
    return compare(lab, what, NULL, NULL, got, want, s->count, s->index, s->n, cols, 0, NULL);
}

int lab_one_kernel(struct lab *lab, const char *what, const char *hint)
{
    if (lab->launches == 1)
        return 0;
    printf("  %s: FAIL, the call launched %d kernels; the statement's rule is one kernel\n", what, lab->launches);
    lab_hint(lab, "%s", hint);
    lab->failures++;
    return 1;
}

void lab_hint(struct lab *lab, const char *fmt, ...)
{
    if (lab->hinted >= 2)  /* the first signatures are the telling ones */
        return;
    for (int k = 0; k < lab->hinted; k++)
        if (lab->said[k] == fmt)  /* the same signature at the next size: said already */
            return;
    lab->said[lab->hinted++] = fmt;
    va_list args;
    va_start(args, fmt);
    printf("  hint: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

int lab_same_twice(struct lab *lab, const void *first, const void *second, size_t bytes)
{
    if (memcmp(first, second, bytes) == 0)
        return 1;
    lab_hint(lab, "two runs on the same data gave different results: a race (a missing __syncthreads(), or "
                  "a += on memory other threads write, that should be an atomicAdd)");
    return 0;
}

/* The timed line, then the lines labs/grade reads: the median, the percentage of the limit and the
 * limit's name. (A hand-out's target, a share of the limit, is labs/targets.txt's.) */
void lab_report(struct lab *lab, struct stats ms, double amount, const char *unit, double limit,
                const char *limit_name)
{
    if (strcmp(unit, "GB/s") == 0)
        print_bandwidth("your_code", "your code", ms, amount, limit, limit_name);
    else
        print_flops("your_code", "your code", ms, amount, limit, limit_name);
    double rate = amount / (ms.median * 1e-3) / 1e9;
    printf("judge-median-ms %.6g\njudge-percent-of-limit %.1f\njudge-limit %s\n", ms.median, 100.0 * rate / limit,
           limit_name);
    (void)lab;
}

void lab_untimed(struct lab *lab, const char *why)
{
    printf("  not timed: %s\n", why);
    printf("judge-untimed %s\n", why);
    (void)lab;
}

void lab_cannot_run(struct lab *lab, const char *why)
{
    printf("  this lab cannot run on %s: %s\n", lab->dev.name, why);
    printf("judge-cannot-run %s\n", why);
    fflush(stdout);
    stop_runner(lab->runner, 0);
    exit(78);
}

int lab_end(struct lab *lab)
{
    relay_output(lab->runner, 1);
    printf("judge-correct %s\n", lab->failures ? "no" : "yes");
    fflush(stdout);
    /* The runner's memory is let go of here before it ends; then a runner still there is asked to go,
     * and given the time to: under a sanitizer, its report is written as it ends. After timed runs, 2 s
     * at most: no report comes, and work of the file's own after its last call (a destructor's kernel)
     * would heat the GPU for the process timed next. */
    if (lab->at_end)
        lab->at_end();  /* timed.c's: the runner's device memory let go of */
    double wait = grace(lab);
    if (lab->time && wait > 2)
        wait = 2;
    if (lab->runner->pid > 0 && send_header(lab, LAB_QUIT, 0) == 0)
        stop_runner(lab->runner, wait);
    stop_runner(lab->runner, 0);
    printf("judge-seed %llu\n", lab->seed);
    return exit_status(lab->failures);
}
