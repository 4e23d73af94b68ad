/* unit_common.c: unit tests of common/, printed as TAP for prove (tests/common.t runs this).
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
#include "../common/text.h"
#include "../common/timer.h"

#include <dirent.h>
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

static void ok(int condition, const char *name)
{
    printf("%s %d - %s\n", condition ? "ok" : "not ok", ++test_number, name);
    if (!condition)
        failures++;
    fflush(stdout);
}

static void skip(const char *name, const char *why)
{
    printf("ok %d - %s # SKIP %s\n", ++test_number, name, why);
}

static char scratch[256];

static const char *scratch_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return path;
}

static void write_file(const char *name, const void *bytes, size_t count)
{
    FILE *f = fopen(scratch_path(name), "wb");
    fwrite(bytes, 1, count, f);
    fclose(f);
}

static char *read_text(const char *path)
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
static int in_child(void (*fn)(void), const char *visible_devices, char **output)
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
    static float f[W * H];
    static unsigned char b[W * H];
    test_picture(f, W, H);
    test_picture_bytes(b, W, H);
    int in_range = 1, bytes_match = 1, dark = 0;
    for (int i = 0; i < W * H; i++) {
        in_range &= f[i] >= 0.0f && f[i] <= 1.0f;
        bytes_match &= b[i] == (unsigned char)(f[i] * 255.0f + 0.5f);
        dark += f[i] < 0.15f;
    }
    ok(in_range, "test_picture: every pixel in 0..1");
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

    struct { const char *name, *bytes; size_t count; const char *expect; } bad[] = {
        {"bad magic", "P2 1 1 255\n\x01", 12, "not a binary"},
        {"text junk", "hello world", 11, "not a binary"},
        {"empty file", "", 0, "not a binary"},
        {"letters for width", "P5 a 1 255\n\x01", 12, "malformed"},
        {"zero width", "P5 0 1 255\n", 11, "outside"},
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

static void test_text(void)
{
    enum { N = 1000000 };
    static unsigned char a[N], b[N];
    english_like_text(a, N, 42);
    english_like_text(b, N, 42);
    ok(!memcmp(a, b, N), "english_like_text is deterministic for a seed");
    english_like_text(b, N, 43);
    ok(memcmp(a, b, N) != 0, "another seed gives another text");
    long counts[256] = {0}, letters = 0;
    for (int i = 0; i < N; i++)
        counts[a[i]]++;
    for (int c = 'a'; c <= 'z'; c++)
        letters += counts[c] + counts[c - 'a' + 'A'];
    double e = (double)(counts['e'] + counts['E']) / letters, z = (double)(counts['z'] + counts['Z']) / letters;
    ok(e > 0.11 && e < 0.14 && z < 0.002, "letter frequencies are English-like (e about 12.7%, z rare)");
    ok(counts[' '] > N / 8 && counts['.'] > 0 && counts[','] > 0 && counts['\n'] > 0 && counts['T'] > 0,
       "spaces, punctuation, line breaks and capitals occur");
    int only_ascii = 1;
    for (int c = 128; c < 256; c++)
        only_ascii &= counts[c] == 0;
    ok(only_ascii, "the text is 7-bit ASCII");
    unsigned char one[1] = {0};
    english_like_text(one, 1, 7);
    ok(one[0] >= 'A' && one[0] <= 'Z', "a 1-byte text is one capital letter");
    write_file("three.txt", "abc", 3);
    long long n = 0;
    char error[256];
    unsigned char *t = read_file(scratch_path("three.txt"), &n, error, sizeof error);
    ok(t && n == 3 && !memcmp(t, "abc", 3), "read_file reads a file's bytes");
    free(t);
    ok(!read_file(scratch_path("none.txt"), &n, error, sizeof error) && strstr(error, "cannot read"),
       "read_file: a missing file gives NULL and why");
    ok(!read_file(scratch, &n, error, sizeof error) && strstr(error, "not a regular file"),
       "read_file: a folder gives NULL and why");
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
    {"GeForce GTX 1650", 7, 5, 14, 1665, 2.98, 0.093, 0, 0, 0, 0, 0, 0},
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
                 peak_gflops(a->tf32_matrix, c->sms, (c->tensor_clock_mhz ? c->tensor_clock_mhz : c->clock_mhz) * 1000) / 1e3);
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
static void test_sweep(void)
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
    ok(code == 11 && strstr(out, "check: FAIL (planted at n = 2: relative error 1.8e-04, worst element off by 1.0e-03)"),
       "sweep_compare, fp32: 1.8e-4 of the whole fails, printed with the element's error");
    code = in_child(fp32_unwritten, NULL, &out);
    ok(code == 11 && strstr(out, "check: FAIL (planted"), "sweep_compare, fp32: a NaN (an element nobody wrote) fails");
    code = in_child(tf32_within, NULL, &out);
    ok(code == 1 && !strstr(out, "check:"), "sweep_compare, TF32: an element within its TF32 bound passes");
    code = in_child(tf32_outside, NULL, &out);
    ok(code == 11 && strstr(out, "1 elements outside the TF32 bound"), "sweep_compare, TF32: an element past its bound fails");
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

static void test_results(void)
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

static void test_output(void)
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

static void test_protections(void)
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
    exit(ms > 0.0f && ms < 1000.0f && runs_ms[1] > 0.0 && runs_ms[1] < 1000.0 && bw > 1.0 && h2d > 0.5 && d2h > 0.1 ? 0 : 1);
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
    snprintf(scratch, sizeof scratch, "/tmp/unit_common.%d", (int)getpid());
    mkdir(scratch, 0700);
    test_parse_number();
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
