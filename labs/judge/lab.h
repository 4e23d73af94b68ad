/* lab.h: what every lab's judge shares. A student never needs to read it.
 * A judge (labs/judge/LAB.cu) is built without the student's code. It makes the inputs from the seed it
 * is given, asks the runner (the student's file linked with labs/runner/, another process) to call the
 * student's launch function, and checks and times what comes back:
 *   struct lab lab; lab_start(&lab, argc, argv, "Lab ch1_map: ...", &reps);   options, device, runner
 *   if (lab_skip(&lab, elements)) continue;       --small: only the sizes a sanitizer takes quickly
 *   struct lab_call c; lab_call_start(&c);        one call of the student's function, its arguments in order:
 *   lab_float(&c, 0.5); lab_in(&c, x, bytes); lab_out(&c, y, got, bytes); lab_int(&c, n);
 *   if (lab_run(&lab, &c)) break;                 in the runner; the outputs land in `got` (1: it failed, said why)
 *   lab_check_floats(&lab, "n = 33", got, want, n, 0, tolerance, "why that tolerance");
 *   lab_hint(&lab, "...");                        a known mistake's signature, said once
 * The timed runs (--time) use buffers the judge owns and shares with the runner (CUDA IPC): each run,
 * the judge's clock runs from its request to the runner's answer, and a fresh sample of the outputs is
 * read back by its own kernel right after, so a call that answers before its work is done shows wrong
 * outputs; nothing the runner says about time is used. The round trip without the call is subtracted:
 *   float *x = lab_shared(&lab, bytes);           device memory the runner sees (lab_shared_host: pinned host)
 *   struct lab_clock clock; lab_clock_start(&lab, &clock, reps);
 *   while (lab_clock_next(&clock)) {              clock.run: -1 in the warm-up, then 0 .. reps - 1
 *       ... reset the outputs, change some inputs ...; lab_sample_draw(&lab, &s);
 *       if (lab_timed_call(&lab, &clock, &c, &s, 1)) break;   then compare s.got with the reference
 *   }
 *   lab_report(&lab, lab_clock_stats(&lab, &clock), bytes, "GB/s", limit, "of the copy bandwidth");
 *   return lab_end(&lab);                         0: every check passed; 1: one failed
 * The judge prints its report for the student, and the lines labs/grade reads, which start with
 * "judge-"; everything the runner prints is relayed with "  | " in front, so it cannot pass for them. */
#ifndef LABS_LAB_H
#define LABS_LAB_H
#include "../../common/bandwidth.h"
#include "../../common/check.h"
#include "../../common/cli.h"
#include "../../common/device.h"
#include "../../common/stats.h"
#include "../../common/timer.h"
#include "protocol.h"
#include "random.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The sizes a sanitizer run (--small) goes up to, in elements of the largest array: instrumented
 * kernels run tens to thousands of times slower. */
enum { LAB_SMALL_ELEMENTS = 1 << 17 };
#define LAB_NO_PICK (~0ULL)

struct lab_runner;  /* the runner's process and channel (channel.c) */

struct lab {
    int small;             /* --small: the small sizes only, no timing (for compute-sanitizer) */
    int time;              /* --time: the timed runs only (each still checked on a sample) */
    unsigned long long seed;  /* every input comes from it (lab_fresh): read from the judge's standard input
                               * (--seed -), never on a command line; printed once the runner has ended */
    unsigned long long secret;  /* where the timed runs' samples fall: from /dev/urandom, never printed */
    unsigned long long calls;   /* lab_fresh's draws so far */
    int big_sizes, big_seen;    /* --small: the sizes above LAB_SMALL_ELEMENTS (lab_big_sizes), those met */
    unsigned long long pick;    /* --small: which of them runs under the sanitizer too (the stdin line's second
                                 * number); LAB_NO_PICK: none (racecheck's run, and a judge run by hand) */
    double deadline;       /* wall_seconds() past which the runner is stopped: --timeout from its first start */
    int timeout;
    int ranks;             /* --ranks: the runner's MPI processes (labs of several ranks; else 1) */
    int failures;
    int quiet;             /* checks that pass say nothing (the timed runs' samples) */
    int spin;              /* waits spin: a timed call is under way */
    int launches;          /* the kernels the last call launched (lab_run, lab_timed_call), as the runner's
                            * wrappers of the launch functions counted them (a lab's "one kernel" rule) */
    int elapsed;           /* the last call's calls of cudaEventElapsedTime, counted the same way */
    char cuda_error[LAB_ERROR_BYTES];  /* the CUDA error that stopped the last call ("cudaErrorMisalignedAddress
                                        * (misaligned address)"), or "": lab_run's 1 with it set is a CUDA
                                        * error, for a judge's hint */
    int hinted;            /* hints said so far: two at most, and each kind once */
    const char *said[2];   /* the kinds said (their format strings) */
    char **runner_argv;    /* the runner's command line, after "--" (labs/grade's: the sandbox, then the runner) */
    const char *channel_dir;  /* --channel-dir: where the socket's folder is made (the one the sandbox shows) */
    struct lab_runner *runner;
    void (*at_end)(void);  /* called by lab_end before the runner goes (timed.c sets it: its shared buffers) */
    struct device_info dev;
};

/* One call of the student's launch function: its arguments in order. */
struct lab_call {
    int count;
    struct lab_arg_wire arg[LAB_MAX_ARGS];
    const void *in[LAB_MAX_ARGS];  /* what a buffer holds before the call, or NULL: poison */
    void *out[LAB_MAX_ARGS];       /* where it goes after the call, or NULL */
};

void lab_call_start(struct lab_call *c);                                    /* no arguments yet */
void lab_int(struct lab_call *c, long long value);
void lab_float(struct lab_call *c, double value);
void lab_in(struct lab_call *c, const void *host, size_t bytes);            /* a device buffer, filled */
void lab_out(struct lab_call *c, const void *in, void *got, size_t bytes);  /* filled with in (or poison), read back;
                                                                             in and got may be the same array */
void lab_scratch(struct lab_call *c, size_t bytes);                         /* poisoned, not read back */
void lab_host_in(struct lab_call *c, const void *host, size_t bytes);       /* pinned host memory, filled */
void lab_host_out(struct lab_call *c, void *got, size_t bytes);             /* pinned host memory, poisoned,
                                                                               read back */
void lab_use(struct lab_call *c, const void *shared);                       /* a buffer of lab_shared(_host) */

void lab_start(struct lab *lab, int argc, char **argv, const char *title, int *reps);
/* --small: the sizes a sanitizer takes quickly, and one larger size drawn for this grade (a file that
 * behaves at small sizes only is caught there). A judge with several sizes over LAB_SMALL_ELEMENTS says
 * how many before its first lab_skip; 1 if it does not. */
void lab_big_sizes(struct lab *lab, int count);
int lab_skip(struct lab *lab, long long elements);
/* A seed of its own for one call's inputs (each correctness size, each timed run), the next draw of the
 * judge's stream: inputs no file can know before the call, nor keep an answer for. A timed run's inputs
 * are all drawn afresh and written by the judge before the call (lab_fill_*): nothing the file left in
 * them survives. */
unsigned long long lab_fresh(struct lab *lab);
int lab_run(struct lab *lab, const struct lab_call *c);
int lab_check_floats(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                     long long cols, double tolerance, const char *why);
int lab_check_uints(struct lab *lab, const char *what, const unsigned *got, const unsigned *want, long long n,
                    long long cols);
void lab_hint(struct lab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A statement's "one kernel": the last call's launches (lab.launches) were one, else a FAIL that says how
 * many, with the lab's hint. 1 if not one. */
int lab_one_kernel(struct lab *lab, const char *what, const char *hint);
int lab_same_twice(struct lab *lab, const void *first, const void *second, size_t bytes);
void lab_report(struct lab *lab, struct stats ms, double amount, const char *unit, double limit,
                const char *limit_name);
void lab_untimed(struct lab *lab, const char *why);       /* a lab judged on its results alone: --time says why */
void lab_cannot_run(struct lab *lab, const char *why);    /* this GPU lacks what the lab needs: exit 78, said why */
int lab_end(struct lab *lab);

/* The timed runs: buffers shared with the runner, a sample of the outputs, the clock. */
void *lab_shared(struct lab *lab, size_t bytes);       /* device memory, poisoned, freed at lab_end */
void *lab_shared_host(struct lab *lab, size_t bytes);  /* host memory the runner pins, poisoned */

enum { LAB_SAMPLES = 1024 };
struct lab_sample {
    const void *output;   /* a buffer of lab_shared or lab_shared_host */
    int size;             /* bytes an element: 1, 4 or 8 */
    long long n;          /* its elements */
    int count;            /* elements read: min(n, LAB_SAMPLES) once drawn */
    long long index[LAB_SAMPLES];
    unsigned long long got[LAB_SAMPLES];  /* each element's bytes, in the low bytes */
    int extra;            /* indices the lab adds before drawing (lab_sample_add): read as well */
    long long wanted[64];
};
void lab_sample_add(struct lab_sample *s, long long index);  /* also read this one (a changed input's output) */
void lab_sample_draw(struct lab *lab, struct lab_sample *s); /* fresh indices, one in each of `count` stretches */
float lab_sample_float(const struct lab_sample *s, int k);
unsigned lab_sample_uint(const struct lab_sample *s, int k);
/* A sample's elements (got) against the reference at the same positions (want): a failure names the
 * position in the output (element s->index[k], or its row and column when cols > 0). */
int lab_check_sample_floats(struct lab *lab, const char *what, const struct lab_sample *s, const float *got,
                            const float *want, long long cols, double tolerance, const char *why);
int lab_check_sample_uints(struct lab *lab, const char *what, const struct lab_sample *s, const unsigned *got,
                           const unsigned *want, long long cols);
/* The same for any chosen elements: at[i] is where got[i] sits in the output. */
int lab_check_floats_at(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                        const long long *at, long long cols, double tolerance, const char *why);

/* The timed runs' loop, as common/timer.h's timed_runs: a warm-up (run -1, its time announces the runs
 * to come), then reps runs, each one lab_timed_call timed by the judge's clock. */
struct lab_clock {
    int reps;
    int run;              /* -2 before the first, -1 the warm-up, then 0 .. reps - 1 */
    double *call_ms, *round_trip_ms, *touch_ms;
    double own_ms;        /* the judge's own round trip to a thread of its own (timed.c): the bound of what
                           * the clock subtracts; 0 where it could not be measured */
    void (*late)(void *); /* if set, called with late_arg between the empty round trip and the call, off the
                           * clock: the last change to the inputs (host memory only: no GPU work of the judge's) */
    void *late_arg;
};
void lab_clock_start(struct lab *lab, struct lab_clock *clock, int reps);
int lab_clock_next(struct lab_clock *clock);  /* starts the next run; 0 once all have run */
int lab_timed_call(struct lab *lab, struct lab_clock *clock, const struct lab_call *c, struct lab_sample *samples,
                   int count);  /* clock->run's call: 1 if it failed, said why */
struct stats lab_clock_stats(struct lab *lab, struct lab_clock *clock);

/* fill.cu: device buffers filled from random.h's functions (the CPU remakes any element with the same
 * call: lab_value, lab_below, lab_bits, lab_any_float), and the judge's own sum of a device array, in double. bound 0:
 * all 32 bits. Each waits for the GPU. */
void lab_fill_floats(float *dev, long long n, unsigned long long seed, unsigned stream, float low, float high);
void lab_fill_uints(unsigned *dev, long long n, unsigned long long seed, unsigned stream, unsigned bound);
void lab_fill_bytes(unsigned char *dev, long long n, unsigned long long seed, unsigned stream);
void lab_fill_any_floats(float *dev, long long n, unsigned long long seed, unsigned stream);  /* lab_any_float */
double lab_sum_on_gpu(const float *dev, long long n);

/* The poison outputs are filled with before the student's code runs: a NaN no arithmetic makes from
 * the labs' data, and for counts a value no count reaches. */
#define LAB_POISON_BYTE 0xff
void *lab_device_alloc(size_t bytes);   /* the judge's own: cudaMalloc, filled with LAB_POISON_BYTE */
void lab_poison(void *p, size_t bytes);  /* device memory, or host memory of lab_shared_host */

#ifdef __cplusplus
}
#endif
#endif
