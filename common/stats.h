/* stats.h: summarise repeated timings, and print them as time, bandwidth or arithmetic rate.
 *   struct stats s = stats_of(ms, reps);
 *   print_bandwidth("add_array_gs", "grid-stride", s, bytes_moved, limit_gbs, "of the copy bandwidth");
 *   print_article("Part 1, a T4: add_array 131 +- 36 us");   the source's own figure for the same thing
 * Times are in milliseconds; the printed unit (s, ms, us) follows the median's size.
 * The first argument of print_* and record_value is the row's key: a short snake_case name
 * ([a-z][a-z0-9_]*), unique in the results file, that stays when the printed label is reworded; the
 * READMEs' tables look rows up by it (tests/tables/lib.awk). A version run at several settings ends its
 * key with the setting's value (streams_10, dot_mutex_640). A key of another form ends the run, exit 1.
 * results_to(FILE), called by main with its --csv FILE (cli.h: cli_results_option), makes each print_*
 * line also a row of FILE, and so each record_value("transfer_bound", "transfer bound", 7.25, "ms");
 * FILE is opened at the first row (csv.h), and
 *   return exit_status(failures);              at the end of main: 0 or 1, and FILE appears only on 0 */
#ifndef COMMON_STATS_H
#define COMMON_STATS_H
#ifdef __cplusplus
extern "C" {
#endif

struct stats {
    int count;
    double median, mean, std, min, max;
};

struct stats stats_of(const double *values, int count);
void print_time(const char *key, const char *label, struct stats ms);
void print_bandwidth(const char *key, const char *label, struct stats ms, double bytes, double limit_gbs,
                     const char *limit_name);
void print_flops(const char *key, const char *label, struct stats ms, double flops, double limit_gflops,
                 const char *limit_name);
void record_value(const char *key, const char *measurement, double value, const char *unit);
void print_article(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void results_to(const char *path);  /* main's --csv FILE; NULL: no file */
int exit_status(int failures);

#ifdef __cplusplus
}
#endif
#endif
