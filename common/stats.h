/* stats.h: summarise repeated timings, and print them as time, bandwidth or arithmetic rate.
 *   struct stats s = stats_of(ms, reps);
 *   print_bandwidth("grid-stride", s, bytes_moved, limit_gbs, "of the copy bandwidth");
 * Times are in milliseconds; the printed unit (s, ms, us) follows the median's size. */
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
void print_time(const char *label, struct stats ms);
void print_bandwidth(const char *label, struct stats ms, double bytes, double limit_gbs,
                     const char *limit_name);
void print_flops(const char *label, struct stats ms, double flops, double limit_gflops,
                 const char *limit_name);

#ifdef __cplusplus
}
#endif
#endif
