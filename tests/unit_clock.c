/* unit_clock.c: the judge's clock (labs/judge/timed.c, lab_clock_stats) on runs made up here, without a
 * GPU: what it subtracts (the empty round trip, at most twice the judge's own plus 10 us), what it counts
 * in the call as work done before it (a TOUCH or a round trip beyond its allowance), and when that fails
 * the file. TAP; built by make test (output/labs/unit_clock), run by tests/clock.t. The times are the
 * H200's of 2026-11-28 (figures/data/labs/gpu_run_20261128.txt): TOUCH 0.161 ms, round trip 0.009 ms,
 * the judge's own 0.013 ms. */
#include "lab.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int tests;

static void ok(int holds, const char *what)
{
    printf("%sok %d - %s\n", holds ? "" : "not ", ++tests, what);
}

/* REPS runs alike: each call `call` ms from request to answer, its empty round trip `noop`, its TOUCH
 * `touch`; the judge's own round trip `own` (0: not measured). The clock's median, and whether it failed
 * the file (lab.failures), with what lab_clock_stats prints kept out of the TAP. */
static double median_of(int *failed, double call, double noop, double touch, double own)
{
    enum { REPS = 11 };
    struct lab lab;
    struct lab_clock clock;
    memset(&lab, 0, sizeof lab);
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    lab_clock_start(&lab, &clock, REPS);
    clock.own_ms = own;
    for (int r = 0; r < REPS; r++)
        clock.call_ms[r] = call, clock.round_trip_ms[r] = noop, clock.touch_ms[r] = touch;
    struct stats s = lab_clock_stats(&lab, &clock);
    fflush(stdout);
    dup2(saved, 1);
    close(saved), close(null);
    *failed = lab.failures > 0;
    return s.median;
}

static int near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

int main(void)
{
    int failed;
    const double own = 0.013, bound = 2 * own + 0.010;  /* what the clock may subtract */
    printf("1..8\n");
    /* An honest call: the TOUCH is the GPU's switch between processes; nothing is counted. */
    double m = median_of(&failed, 0.100, 0.009, 0.161, own);
    ok(near(m, 0.100 - 0.009) && !failed, "an honest call: its time less the empty round trip, nothing more");
    /* A runner that answers its empty round trips late (a proxy on the socket): at most the bound is
     * subtracted, and what it took beyond the bound is counted as work before the call. */
    m = median_of(&failed, 1.000, 0.300, 0.161, own);
    ok(near(m, 1.000 - bound + (0.300 - bound)) && !failed,
       "a late empty round trip: the bound subtracted, the rest counted");
    m = median_of(&failed, 0.100, 0.300, 0.161, own);
    ok(failed, "a late empty round trip longer than the call itself: the file fails");
    /* Work when the TOUCH comes: what the TOUCH takes beyond the bound and the switch (0.2 ms) counts. */
    m = median_of(&failed, 1.000, 0.009, 0.500, own);
    ok(near(m, 1.000 - 0.009 + (0.500 - bound - 0.2)) && !failed,
       "work at the TOUCH, less than the call's: counted in the call, not failed");
    m = median_of(&failed, 0.030, 0.009, 0.500, own);
    ok(failed, "work at the TOUCH over 0.1 ms and more than the call's: the file fails");
    m = median_of(&failed, 0.200, 0.009, bound + 0.2 + 0.300, own);
    ok(failed, "work at the TOUCH more than the call's, if less than twice it: the file fails");
    m = median_of(&failed, 0.030, 0.009, 0.300, own);
    ok(near(m, 0.030 - 0.009 + (0.300 - bound - 0.2)) && !failed,
       "work at the TOUCH under 0.1 ms: counted, not failed");
    /* Where the judge could not measure its own round trip: the runner's is subtracted, nothing counted. */
    m = median_of(&failed, 0.100, 0.050, 0.500, 0);
    ok(near(m, 0.100 - 0.050) && !failed, "no round trip of the judge's own: the runner's subtracted, nothing counted");
    return 0;
}
