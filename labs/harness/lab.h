/* lab.h: what every lab's harness shares. A student never needs to read it.
 *   struct lab lab; lab_start(&lab, argc, argv, "Lab ch1_map: ...", &reps);   options, device
 *   if (lab_skip(&lab, elements)) continue;      --small runs only the sizes a sanitizer takes quickly
 *   lab_check_floats(&lab, "n = 33", got, want, n, 0, tolerance, "why that tolerance");
 *   lab_hint(&lab, "...");                       a known mistake's signature, said once
 *   struct stats ms = lab_time(&lab, run, arg);  warm-up, then the timed runs, by CUDA events
 *   lab_report(&lab, ms, bytes, "GB/s", limit, "of the copy bandwidth", 40);   40: the hand-out's target
 *   return lab_end(&lab);                        0: every check passed; 1: one failed
 * The check prints the first wrong element (its index, expected and got), how many are wrong, and the
 * tolerance with its reason; it says when a wrong element still holds the poison the harness filled the
 * output with (no thread wrote it). labs/check.sh reads the lines that start with "lab-". */
#ifndef LABS_LAB_H
#define LABS_LAB_H
#include "../../common/bandwidth.h"
#include "../../common/check.h"
#include "../../common/cli.h"
#include "../../common/device.h"
#include "../../common/stats.h"
#include "../../common/timer.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The sizes a sanitizer run (--small) goes up to, in elements of the largest array: instrumented
 * kernels run tens to thousands of times slower. */
enum { LAB_SMALL_ELEMENTS = 1 << 17 };

struct lab {
    int small;           /* --small: the small sizes only, no timing (for compute-sanitizer) */
    int time_only;       /* --time-only: skip the checks (the course's solution, already checked) */
    int failures;
    int hinted;          /* hints said so far: two at most, and each kind once */
    const char *said[2]; /* the kinds said (their format strings) */
    struct device_info dev;
};

void lab_start(struct lab *lab, int argc, char **argv, const char *title, int *reps);
int lab_skip(const struct lab *lab, long long elements);
int lab_check_floats(struct lab *lab, const char *what, const float *got, const float *want, long long n,
                     long long cols, double tolerance, const char *why);
int lab_check_uints(struct lab *lab, const char *what, const unsigned *got, const unsigned *want, long long n,
                    long long cols);
void lab_hint(struct lab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lab_same_twice(struct lab *lab, const void *first, const void *second, size_t bytes);
struct stats lab_time(struct lab *lab, int reps, void (*run)(void *), void *arg, int wall_clock);
void lab_report(struct lab *lab, struct stats ms, double amount, const char *unit, double limit,
                const char *limit_name, int target_of_limit);
int lab_end(struct lab *lab);

/* The poison outputs are filled with before the student's code runs: a NaN no arithmetic makes from
 * the labs' data, and for counts a value no count reaches. */
#define LAB_POISON_BYTE 0xff
void *lab_device_alloc(size_t bytes);   /* cudaMalloc, filled with LAB_POISON_BYTE */
void lab_poison(void *dev, size_t bytes);
float lab_random(unsigned *state);      /* uniform in [0, 1), from a fixed seed */

#ifdef __cplusplus
}
#endif
#endif
