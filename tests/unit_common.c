/* unit_common.c: unit tests of common/, printed as TAP for prove (tests/common.t runs this); what the
 * programs write out (the sweep's checks, the results file, output files) is tested in unit_output.c.
 * Everything that touches CUDA runs in a forked child, so the parent never initialises CUDA and a child
 * that exits (cuda_check, device_start) is checked by its exit status and what it printed. */
#define _POSIX_C_SOURCE 200809L
#include "../common/bandwidth.h"
#include "../common/check.h"
#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/device.h"
#include "../common/image.h"
#include "../common/output.h"
#include "../common/stats.h"
#include "../common/sweep.h"
#include "../common/timer.h"
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int test_number = 0, failures = 0;

void ok(int condition, const char *name)
{
    printf("%s %d - %s\n", condition ? "ok" : "not ok", ++test_number, name);
    if (!condition)
        failures++;
    fflush(stdout);
}

void skip(const char *name, const char *why)
{
    printf("ok %d - %s # SKIP %s\n", ++test_number, name, why);
}

char scratch[256];

const char *scratch_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return path;
}

void write_file(const char *name, const void *bytes, size_t count)
{
    FILE *f = fopen(scratch_path(name), "wb");
    fwrite(bytes, 1, count, f);
    fclose(f);
}

char *read_text(const char *path)
{
    static char text[65536];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

/* Runs fn in a child with stdout+stderr sent to a file; returns the exit code, output in *output. */
int in_child(void (*fn)(void), const char *visible_devices, char **output)
{
    const char *log = scratch_path("child.log");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (visible_devices)
            setenv("CUDA_VISIBLE_DEVICES", visible_devices, 1);
        if (!freopen(log, "w", stdout) || dup2(fileno(stdout), 2) < 0)
            _exit(120);
        fn();
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    *output = read_text(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_parse_number(void)
{
    double x = 0;
    const char *why = NULL;
    ok(parse_number("1000000", 1, 1, 1e12, &x, &why) == 0 && x == 1e6, "parse 1000000");
    ok(parse_number("1e6", 1, 1, 1e12, &x, &why) == 0 && x == 1e6, "parse 1e6");
    ok(parse_number("1M", 1, 1, 1e12, &x, &why) == 0 && x == 1e6, "parse 1M");
    ok(parse_number("4k", 1, 1, 1e12, &x, &why) == 0 && x == 4e3, "parse 4k");
    ok(parse_number("2G", 1, 1, 1e12, &x, &why) == 0 && x == 2e9, "parse 2G");
    ok(parse_number("2.5", 0, 0, 10, &x, &why) == 0 && x == 2.5, "parse 2.5 as a real");
    ok(parse_number("2.5", 1, 0, 10, &x, &why) == -1 && strstr(why, "whole"), "reject 2.5 as a size");
    ok(parse_number("abc", 1, 0, 10, &x, &why) == -1 && strstr(why, "not a number"), "reject abc");
    ok(parse_number("", 1, 0, 10, &x, &why) == -1, "reject empty");
    ok(parse_number(" 5", 1, 0, 10, &x, &why) == -1, "reject leading space");
    ok(parse_number("12x", 1, 0, 100, &x, &why) == -1 && strstr(why, "trailing"), "reject 12x");
    ok(parse_number("1MM", 1, 0, 1e12, &x, &why) == -1, "reject 1MM");
    ok(parse_number("-5", 1, 1, 10, &x, &why) == -1 && strstr(why, "negative"), "reject -5");
    ok(parse_number("0", 1, 1, 10, &x, &why) == -1 && strstr(why, "small"), "reject 0 when min is 1");
    ok(parse_number("1e30", 1, 1, 1e12, &x, &why) == -1 && strstr(why, "large"), "reject 1e30 > max");
    ok(parse_number("1e999", 1, 1, 1e12, &x, &why) == -1 && strstr(why, "range"), "reject overflow 1e999");
    ok(parse_number("inf", 0, 0, 1e300, &x, &why) == -1, "reject inf");
    ok(parse_number("nan", 0, 0, 10, &x, &why) == -1, "reject nan");
    ok(parse_number("+5", 1, 0, 10, &x, &why) == -1 && strstr(why, "not a number"), "reject +5");
    ok(parse_number("0x10", 1, 0, 100, &x, &why) == -1, "reject hexadecimal 0x10");
    ok(parse_number("0X1p3", 0, 0, 100, &x, &why) == -1, "reject hexadecimal float 0X1p3");
    ok(parse_number(".5", 0, 0, 1, &x, &why) == 0 && x == 0.5, "parse .5");
}

static void test_stats(void)
{
    double odd[] = {5, 1, 3};
    struct stats s = stats_of(odd, 3);
    ok(s.median == 3 && s.mean == 3 && s.min == 1 && s.max == 5, "median, mean, min, max of 3 values");
    ok(fabs(s.std - 2.0) < 1e-12, "sample standard deviation of 1,3,5 is 2");
    ok(odd[0] == 5 && odd[1] == 1, "stats_of leaves its input unsorted");
    double even[] = {4, 1, 3, 2};
    ok(stats_of(even, 4).median == 2.5, "median of an even count averages the middle two");
    double one[] = {7};
    ok(stats_of(one, 1).std == 0 && stats_of(one, 1).median == 7, "one value: std 0");
    ok(isnan(stats_of(one, 0).median), "no values: NaN, not a crash");
}

static void test_relative_error(void)
{
    ok(relative_error(1.01, 1.0) > 0.0099 && relative_error(1.01, 1.0) < 0.0101, "relative error 1%");
    ok(relative_error(0.0, 0.0) == 0.0, "relative error of 0 vs 0");
    ok(isinf(relative_error(NAN, 1.0)), "NaN never passes a tolerance");
    ok(worst_of(1.0, 2.0) == 2.0 && worst_of(2.0, 1.0) == 2.0, "worst_of keeps the larger");
    ok(isnan(worst_of(1.0, NAN)) && isnan(worst_of(worst_of(0.0, NAN), 5.0)), "worst_of: a NaN sticks");
}

static void fail_a_check(void) { exit(check(1 == 2, "one is %d", 1)); }
static void allocate_too_much(void) { host_alloc((size_t)-1 / 2); }

static void test_checks(void)
{
    char *out = NULL;
    int code = in_child(fail_a_check, NULL, &out);
    ok(code == 1 && strstr(out, "check: FAIL (one is 1)"), "check prints FAIL and returns 1 to count it");
    code = in_child(allocate_too_much, NULL, &out);
    ok(code == 1 && strstr(out, "out of host memory") && strstr(out, "GiB"), "host_alloc: exit 1, naming the size");
    void *p = host_alloc(0);
    ok(p != NULL, "host_alloc(0) gives a pointer");
    free(p);
}

static void test_colormap(void)
{
    unsigned char lo[3], mid[3], hi[3], below[3], nan_rgb[3];
    colormap(0.0f, 0.0f, 1.0f, lo);
    colormap(0.5f, 0.0f, 1.0f, mid);
    colormap(1.0f, 0.0f, 1.0f, hi);
    colormap(-3.0f, 0.0f, 1.0f, below);
    colormap(NAN, 0.0f, 1.0f, nan_rgb);
    ok(lo[0] == 68 && lo[1] == 1 && lo[2] == 84, "colormap low end is viridis dark purple");
    ok(hi[0] == 253 && hi[1] == 231 && hi[2] == 37, "colormap high end is viridis yellow");
    ok(mid[0] == 33 && mid[1] == 144 && mid[2] == 140, "colormap middle is viridis teal");
    ok(!memcmp(below, lo, 3) && !memcmp(nan_rgb, lo, 3), "colormap clamps below range and NaN");
    int rising = 1;
    double last = -1;
    for (int i = 0; i <= 100; i++) {
        unsigned char c[3];
        colormap(i / 100.0f, 0.0f, 1.0f, c);
        double luma = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
        rising &= luma >= last - 1.0;  /* allow rounding */
        last = luma;
    }
    ok(rising, "colormap lightness rises, so it reads in grey print");
}

/* A 19-byte file whose header claims 1.6 GB, read with 512 MiB of address space: must say truncated. */
static void read_big_header_small_memory(void)
{
    struct rlimit limit = {512u << 20, 512u << 20};
    setrlimit(RLIMIT_AS, &limit);
    write_file("big.pgm", "P5 40000 40000 255\n", 19);
    int w, h, c;
    char error[256] = "";
    unsigned char *back = read_pnm(scratch_path("big.pgm"), &w, &h, &c, error, sizeof error);
    printf("%s\n", error);
    exit(!back && strstr(error, "truncated") ? 0 : 1);
}

/* The test picture: 0..1 everywhere, mostly dark, the grey ramp along the bottom, and the byte version
 * the rounded float version. */
static void test_test_picture(void)
{
    enum { W = 300, H = 200 };
    static float f[W * H + W];  /* (a row more, which must stay as it was: nothing written past the picture) */
    static unsigned char b[W * H + W];
    memset(f + W * H, 0xff, W * sizeof *f), memset(b + W * H, 0xab, W);
    test_picture(f, W, H);
    test_picture_bytes(b, W, H);
    int in_range = 1, bytes_match = 1, dark = 0, past = 0;
    for (int i = W * H; i < W * H + W; i++)
        past += !isnan(f[i]) || b[i] != 0xab;
    for (int i = 0; i < W * H; i++) {
        in_range &= f[i] >= 0.0f && f[i] <= 1.0f;
        bytes_match &= b[i] == (unsigned char)(f[i] * 255.0f + 0.5f);
        dark += f[i] < 0.15f;
    }
    ok(in_range && !past, "test_picture: every pixel in 0..1, nothing written past the last");
    ok(bytes_match, "test_picture_bytes: the float picture, rounded to bytes");
    ok(dark > W * H * 3 / 4, "test_picture: most of it dark (below 0.15)");
    ok(f[(H - 1) * W] == 0.0f && f[(H - 1) * W + W / 2] == 0.5f, "test_picture: the grey ramp along the bottom");
}

static void test_pnm(void)
{
    int w = 0, h = 0, c = 0;
    char error[256];
    unsigned char gray[6] = {0, 50, 100, 150, 200, 255}, rgb[12];
    for (int i = 0; i < 12; i++)
        rgb[i] = (unsigned char)(i * 20);
    write_pgm(scratch_path("sub/dir/g.pgm"), gray, 3, 2);
    unsigned char *back = read_pnm(scratch_path("sub/dir/g.pgm"), &w, &h, &c, error, sizeof error);
    ok(back && w == 3 && h == 2 && c == 1 && !memcmp(back, gray, 6), "PGM round trip (folders made)");
    free(back);
    write_ppm(scratch_path("c.ppm"), rgb, 2, 2);
    back = read_pnm(scratch_path("c.ppm"), &w, &h, &c, error, sizeof error);
    ok(back && w == 2 && h == 2 && c == 3 && !memcmp(back, rgb, 12), "PPM round trip");
    free(back);

    const char commented[] = "P5\n# a comment\n2 # width\n1\n# before maxval\n255\n\x07\x09";
    write_file("comment.pgm", commented, sizeof commented - 1);
    back = read_pnm(scratch_path("comment.pgm"), &w, &h, &c, error, sizeof error);
    ok(back && w == 2 && h == 1 && back[0] == 7 && back[1] == 9, "comments in the header are skipped");
    free(back);
    const char scaled[] = "P5 1 2 15 \x0f\x00";
    write_file("scaled.pgm", scaled, sizeof scaled - 1);
    back = read_pnm(scratch_path("scaled.pgm"), &w, &h, &c, error, sizeof error);
    ok(back && back[0] == 255 && back[1] == 0, "maxval 15 is rescaled to 0..255");
    free(back);
    static char e[65536 + 32];  /* at the edges: a comment right after a number, maxval 1; the largest sides */
    const char *edge[] = {"P5 2#w\n1 1\n\x01", "P5 65536 1 255\n", "P5 1 65536 255\n"};
    for (int i = 0; i < 3; i++, free(back)) {
        write_file("edge.pgm", memcpy(e, edge[i], strlen(edge[i])), strlen(edge[i]) + (i ? 65536 : 1));
        back = read_pnm(scratch_path("edge.pgm"), &w, &h, &c, error, sizeof error);
        ok(back && w * h == (i ? 65536 : 2) && (i || back[0] == 255), "the reader takes a header at its edges");
    }

    struct { const char *name, *bytes; size_t count; const char *expect; } bad[] = {
        {"bad magic", "P2 1 1 255\n\x01", 12, "not a binary"},
        {"text junk", "hello world", 11, "not a binary"},
        {"empty file", "", 0, "not a binary"},
        {"letters for width", "P5 a 1 255\n\x01", 12, "malformed"},
        {"zero width", "P5 0 1 255\n", 11, "outside"}, {"zero height", "P5 1 0 255\n", 11, "outside"},
        {"2^31 bytes, the most it takes", "P5 65536 32768 255\n", 19, "truncated"},
        {"absurd size", "P5 60000 60000 255\n", 19, "too large"},
        {"overflowing digits", "P5 99999999999999999999 1 255\n", 30, "malformed"},
        {"maxval 0", "P5 1 1 0\n\x01", 10, "maxval"},
        {"maxval 256", "P5 1 1 256\n\x01\x01", 13, "maxval"},
        {"missing header", "P6", 2, "malformed"},
        {"truncated pixels", "P6 2 2 255\n\x01\x02\x03", 14, "truncated"},
        {"comment right before raster", "P5 1 1 255#c\n", 13, "malformed"},
        {"a byte after the image", "P5 1 1 255\n\x01\x02", 13, "after the image"},
        {"a second image", "P5 1 1 255\n\x01P5 1 1 255\n\x01", 24, "after the image"},
        {"a sample above maxval", "P5 2 1 15\n\x0f\x10", 12, "above maxval"},
        {"a header that claims 1.6 GB", "P5 40000 40000 255\n", 19, "truncated"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("bad.pnm", bad[i].bytes, bad[i].count);
        error[0] = '\0';
        back = read_pnm(scratch_path("bad.pnm"), &w, &h, &c, error, sizeof error);
        char name[128];
        snprintf(name, sizeof name, "reader rejects %s with a clear error", bad[i].name);
        ok(back == NULL && strstr(error, bad[i].expect) != NULL, name);
        if (back || !strstr(error, bad[i].expect))
            printf("# got: %s\n", error);
        free(back);
    }
    back = read_pnm(scratch_path("no-such-file.pgm"), &w, &h, &c, error, sizeof error);
    ok(back == NULL && strstr(error, "cannot open"), "reader names a missing file");
    back = read_pnm(scratch, &w, &h, &c, error, sizeof error);
    ok(back == NULL && strstr(error, "is a folder"), "reader names a folder as one");
    mkfifo(scratch_path("fifo"), 0600);
    back = read_pnm(scratch_path("fifo"), &w, &h, &c, error, sizeof error);  /* would block for ever */
    ok(back == NULL && strstr(error, "not a regular file"), "reader refuses a FIFO without waiting on it");
    char *out = NULL;
    ok(in_child(read_big_header_small_memory, NULL, &out) == 0,
       "reader compares the declared size with the file before allocating it (512 MiB address space)");
}

static void test_csv(void)
{
    /* device_start names its GPU so (csv_measured_on); the first name given stays. */
    csv_measured_on("Test GPU, compute capability 9.0, driver 13.0, CUDA runtime 12.8");
    csv_measured_on("Another GPU");
    FILE *f = csv_open(scratch_path("csv/t.csv"), "n,ms");
    csv_row(f, "%d,%.3f", 10, 1.5);
    csv_close(f);
    const char *text = read_text(scratch_path("csv/t.csv"));
    ok(!strncmp(text, "# device: Test GPU, compute capability 9.0, driver 13.0, CUDA runtime 12.8, ", 75),
       "CSV opens with a # line naming device, capability, driver, runtime");
    ok(strstr(text, " UTC\nn,ms\n10,1.500\n") != NULL, "CSV has the date, header row and data row");
}

/* Published figures of real cards, from NVIDIA's datasheets, product pages and whitepapers: SMs, boost
 * clock (MHz), peak TFLOP/s in FP32, FP64, FP64 matrix products and dense TF32 matrix products (0: not
 * published), the clock the TF32 figure assumes where it differs (the H100 whitepaper's 494.7 is
 * 132 x 2048 x 1.83 GHz, its FP64 figures 1.98 GHz), and the memory clock the device reports (MHz)
 * with its bus width, against the bandwidth the datasheet gives (GB/s; 0: none). */
struct card {
    const char *name;
    int major, minor, sms, clock_mhz;
    double fp32, fp64, fp64_matrix, tf32_matrix;
    int tensor_clock_mhz;
    int mem_clock_mhz, bus_bits;
    double gbs;
};
static const struct card cards[] = {
    {"Tesla T4", 7, 5, 40, 1590, 8.1, 0.25, 0, 0, 0, 5001, 256, 320},
    {"GeForce GTX 1650", 7, 5, 14, 1665, 2.98, 0.093, 0, 0, 0, 4001, 128, 128},  /* GDDR5: 8 Gb/s a pin */
    {"A100 SXM4 40GB", 8, 0, 108, 1410, 19.5, 9.7, 19.5, 156, 0, 1215, 5120, 1555},
    {"GeForce RTX 3060", 8, 6, 28, 1777, 12.7, 0.2, 0, 12.7, 0, 0, 0, 0},
    {"Jetson AGX Orin 64GB", 8, 7, 16, 1300, 5.3, 0, 0, 0, 0, 0, 0, 0},
    {"GeForce RTX 4090", 8, 9, 128, 2520, 82.6, 1.29, 0, 82.6, 0, 10501, 384, 1008},
    {"H100 SXM5", 9, 0, 132, 1980, 67, 34, 67, 494.7, 1830, 2619, 5120, 3350},
    {"H200 SXM", 9, 0, 132, 1980, 67, 34, 67, 494.7, 1830, 3761, 5120, 4800},
    {"B200 (HGX)", 10, 0, 148, 1965, 75, 37, 37, 0, 0, 0, 0, 0},
    {"GeForce RTX 5090", 12, 0, 170, 2407, 104.8, 1.64, 0, 104.8, 0, 0, 0, 0},
};

/* Datasheets round to two or three digits: 3% apart is a match, a wrong lane count (2x) is not. */
static int near(double derived, double published)
{
    return published == 0 || fabs(derived - published) <= 0.03 * published;
}

static int peaks_match(const struct card *c, const struct arch_facts *a)
{
    int khz = c->clock_mhz * 1000, tensor_khz = (c->tensor_clock_mhz ? c->tensor_clock_mhz : c->clock_mhz) * 1000;
    return near(peak_gflops(a->fp32_lanes, c->sms, khz) / 1e3, c->fp32) &&
           near(peak_gflops(a->fp64_lanes, c->sms, khz) / 1e3, c->fp64) &&
           near(peak_gflops(a->fp64_matrix, c->sms, khz) / 1e3, c->fp64_matrix) &&
           near(peak_gflops(a->tf32_matrix, c->sms, tensor_khz) / 1e3, c->tf32_matrix);
}

static void test_device_facts(void)
{
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        const struct card *c = &cards[i];
        int exact = 0;
        const struct arch_facts *a = arch_facts(c->major, c->minor, &exact);
        char name[160];
        snprintf(name, sizeof name, "%s (%d.%d): derived FP32 %.2f TFLOP/s, FP64 %.3f, FP64 matrix %.2f, TF32 matrix "
                 "%.1f match the datasheet", c->name, c->major, c->minor,
                 peak_gflops(a->fp32_lanes, c->sms, c->clock_mhz * 1000) / 1e3,
                 peak_gflops(a->fp64_lanes, c->sms, c->clock_mhz * 1000) / 1e3,
                 peak_gflops(a->fp64_matrix, c->sms, c->clock_mhz * 1000) / 1e3,
                 peak_gflops(a->tf32_matrix, c->sms,
                             (c->tensor_clock_mhz ? c->tensor_clock_mhz : c->clock_mhz) * 1000) / 1e3);
        ok(exact && peaks_match(c, a), name);
        if (c->gbs > 0) {
            snprintf(name, sizeof name, "%s: %d MHz x %d bits gives %.0f GB/s, the datasheet %.0f", c->name,
                     c->mem_clock_mhz, c->bus_bits, memory_peak_gbs(c->mem_clock_mhz * 1000, c->bus_bits), c->gbs);
            ok(near(memory_peak_gbs(c->mem_clock_mhz * 1000, c->bus_bits), c->gbs), name);
        }
    }
    /* The check can fail: a row with the wrong lane count does not match the card. */
    struct arch_facts wrong = *arch_facts(8, 0, NULL);
    wrong.fp32_lanes = 128;  /* as on 8.6, but the A100 has 64 */
    ok(!peaks_match(&cards[2], &wrong), "a table row with 128 FP32 lanes for 8.0 fails the A100's datasheet");
    wrong = *arch_facts(9, 0, NULL);
    wrong.fp64_matrix = wrong.fp64_lanes;  /* forgetting the tensor cores' DGEMM */
    ok(!peaks_match(&cards[6], &wrong), "a row without 9.0's FP64 tensor cores fails the H100's datasheet");
    wrong = *arch_facts(8, 6, NULL);
    wrong.tf32_matrix = 512;  /* the A100's tensor cores, but a GA10x SM has a quarter of them */
    ok(!peaks_match(&cards[3], &wrong), "a row with the A100's TF32 rate for 8.6 fails the RTX 3060's datasheet");
    int exact = 1;
    ok(arch_facts(8, 8, &exact)->minor == 7 && !exact, "an unlisted 8.8 takes 8.7's row and says it is not exact");
    ok(arch_facts(13, 0, &exact)->major == 12 && !exact, "a future 13.0 takes the newest row");
    ok(arch_facts(6, 1, &exact)->major == 7 && !exact, "an older 6.1 takes the oldest row, marked not exact");
}

static void test_sizes(void)
{
    ok(largest_size(4e9, 4.0, 1) == 1000000000, "4e9 bytes hold 1e9 floats");
    ok(largest_size(3.77e9, 4.0, 1) == 940000000, "3.77e9 bytes: 942,500,000 floats, rounded down to 940000000");
    ok(largest_size(3.2e9, 32.0, 2) == 10000, "3.2e9 bytes: four 10000 x 10000 int64 matrices");
    ok(largest_size(3.19e9, 32.0, 2) == 9900, "3.19e9 bytes: side 9984, rounded down to 9900");
    ok(largest_size(400, 4.0, 1) == 100 && largest_size(396, 4.0, 1) == 99, "sizes under 100 stay exact");
    ok(largest_size(3, 4.0, 1) == 0, "not even one element: 0");
    ok(largest_size(1e12, 0.0, 1) == LLONG_MAX, "nothing per element: no limit");
    double host = host_available_bytes();
    ok(host > 1e6 && host < 1e15, "host_available_bytes reads a plausible amount");
    char *argv[] = {"prog", "-n", "5", NULL};
    long long n = 0;
    int reps = 0;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &n, 1, 10, "size"},
        {"-r", CLI_INT, &reps, 1, 10, "reps"},
    };
    cli_parse(3, argv, "test", options, 2);
    ok(n == 5 && cli_given("-n") && !cli_given("-r"), "cli_given: -n was given, -r was not");
}


/* A warm-up with an empty window and 20 ms after it: 2000 runs of it take 40 s, which must be said,
 * unless the loop is quiet (QUIET set). */
static void announce_from_warm_up(void)
{
    double ms[1];
    struct timed_runs runs = timed_runs_wall(ms, 2000);
    runs.quiet = getenv("QUIET") != NULL;
    struct timespec twenty = {0, 20000000};
    while (timed_run(&runs) && runs.run < 0) {
        timed_run_end(&runs);
        nanosleep(&twenty, NULL);
    }
}

static void fail_a_call(void) { CUDA_CHECK(cudaErrorInvalidValue); }
static void pass_a_call(void) { CUDA_CHECK(cudaSuccess); printf("still here\n"); }
static void start_device_0(void) { struct device_info d; device_start(0, &d); }
static void start_device_999(void) { struct device_info d; device_start(999, &d); }
static void time_a_memset(void)
{
    struct device_info d;
    device_start(0, &d);
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, 64 << 20));
    struct gpu_timer t;
    gpu_timer_create(&t);
    gpu_timer_start(&t, 0);
    CUDA_CHECK(cudaMemset(p, 1, 64 << 20));
    float ms = gpu_timer_stop(&t);
    double runs_ms[2] = {0.0, 0.0};
    struct timed_runs runs = timed_runs(runs_ms, 2, 0);
    while (timed_run(&runs))
        CUDA_CHECK(cudaMemsetAsync(p, 2, 64 << 20, 0));
    double bw = measure_copy_bandwidth(64 << 20);
    double h2d = measure_transfer_bandwidth(16 << 20, 1, 1), d2h = measure_transfer_bandwidth(16 << 20, 0, 0);
    printf("timed %.4f ms, copy %.0f GB/s, peak %.0f GB/s, pinned h2d %.1f GB/s, pageable d2h %.1f GB/s\n", ms,
           bw, d.peak_gbs, h2d, d2h);
    exit(ms > 0.0f && ms < 1000.0f && runs_ms[1] > 0.0 && runs_ms[1] < 1000.0 &&
         bw > 1.0 && h2d > 0.5 && d2h > 0.1 ? 0 : 1);
}

static void test_cuda_parts(void)
{
    char *out = NULL;
    int code = in_child(fail_a_call, NULL, &out);
    ok(code == 1 && strstr(out, "unit_common.c:") && strstr(out, "cudaErrorInvalidValue") &&
           strstr(out, "cudaErrorInvalidValue failed"),
       "cuda_check names file:line, the call and the CUDA error, exit 1");
    code = in_child(pass_a_call, NULL, &out);
    ok(code == 0 && strstr(out, "still here"), "cuda_check lets success through");
    code = in_child(start_device_0, "", &out);
    ok(code == NO_DEVICE_EXIT && strstr(out, "no usable CUDA device"),
       "no visible device: message and exit 77");
    if (access("/proc/driver/nvidia/version", F_OK) != 0) {
        code = in_child(start_device_0, NULL, &out);
        ok(code == NO_DEVICE_EXIT && strstr(out, "no NVIDIA driver"), "no driver at all: said so, exit 77");
    } else {
        skip("no driver at all: said so, exit 77", "this machine has an NVIDIA driver");
    }

    double t0 = wall_seconds();
    struct timespec pause = {0, 20000000};
    nanosleep(&pause, NULL);
    double dt = wall_seconds() - t0;
    ok(dt >= 0.019 && dt < 1.0, "wall_seconds measures a 20 ms sleep");

    /* The timing loop: a warm-up (run -1), then the runs 0 .. reps - 1, each time kept. */
    double ms[3] = {-1.0, -1.0, -1.0};
    int seen[8], bodies = 0;
    struct timed_runs runs = timed_runs_wall(ms, 3);
    struct timespec five = {0, 5000000};
    while (timed_run(&runs) && bodies < 8) {
        seen[bodies++] = runs.run;
        nanosleep(&five, NULL);
    }
    ok(bodies == 4 && seen[0] == -1 && seen[1] == 0 && seen[3] == 2 && ms[0] >= 4.9 && ms[2] >= 4.9 && ms[2] < 1000.0,
       "timed_runs_wall: a warm-up, then three runs of a 5 ms sleep, each timed");
    /* timed_run_end: the 20 ms after it are not in the run's time, but they are in the warm-up's estimate. */
    double short_ms[2] = {-1.0, -1.0};
    struct timespec two = {0, 2000000}, twenty = {0, 20000000};
    runs = timed_runs_wall(short_ms, 2);
    while (timed_run(&runs)) {
        nanosleep(&two, NULL);
        timed_run_end(&runs);
        timed_run_end(&runs);  /* a second end changes nothing */
        nanosleep(&twenty, NULL);
    }
    ok(short_ms[0] >= 1.9 && short_ms[0] < 15.0 && short_ms[1] >= 1.9 && short_ms[1] < 15.0,
       "timed_run_end: the body's work after it is not timed (2 ms in the window, 20 ms after)");
    code = in_child(announce_from_warm_up, NULL, &out);
    ok(code == 0 && strstr(out, "note: 2000 timed runs of 0.02"),
       "the warm-up's announcement counts the body's work after timed_run_end");
    setenv("QUIET", "1", 1);
    code = in_child(announce_from_warm_up, NULL, &out);
    unsetenv("QUIET");
    ok(code == 0 && !strstr(out, "note:"), "a quiet timing loop announces nothing");

    int gpu = system("nvidia-smi -L >/dev/null 2>&1") == 0;
    if (!gpu) {
        skip("device_start on a real GPU", "no GPU");
        skip("device_start rejects a device id that does not exist", "no GPU");
        skip("gpu_timer and timed_runs time a memset; copy and transfer bandwidths come out in GB/s", "no GPU");
        return;
    }
    code = in_child(start_device_0, NULL, &out);
    ok(code == 0 && strstr(out, "compute capability") && strstr(out, "SMs"),
       "device_start prints name, capability, SMs");
    code = in_child(start_device_999, NULL, &out);
    ok(code == 2 && strstr(out, "no such device"), "device_start rejects a device id that does not exist");
    code = in_child(time_a_memset, NULL, &out);
    ok(code == 0, "gpu_timer and timed_runs time a memset; copy and transfer bandwidths come out in GB/s");
    printf("# %s", out);
}

int main(void)
{
    /* Ctrl-C as at a terminal (test_output sends one): a suite started in the background (`make test &`)
     * inherits SIGINT ignored, which common/output.c, as nohup expects, would leave ignored. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    /* A folder of its own, new: a run stopped at its first "not ok" (tests/mutants_worker.sh stops it so)
     * leaves its folder behind, and a later run given the same process id must not find its files there. */
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/unit_common.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        printf("Bail out! cannot make a scratch folder %s: %s\n", scratch, strerror(errno));
        return 1;
    }
    test_parse_number();
    test_cli();
    test_stats();
    test_relative_error();
    test_colormap();
    test_test_picture();
    test_pnm();
    test_csv();
    test_results();
    test_text();
    test_output();
    test_protections();
    test_checks();
    test_device_facts();
    test_sizes();
    test_sweep();
    test_cuda_parts();
    printf("1..%d\n", test_number);
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", scratch);
    if (system(command) != 0)
        printf("# could not remove %s\n", scratch);
    return failures ? 1 : 0;
}
