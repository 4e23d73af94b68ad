/* A forgery, class 1 of issue 49 (the seed is readable), by another road than a hidden system call: it
 * calls libc's own open, read and close through addresses it computes, so that its object names none of
 * them. A constructor keeps the environment glibc passes it; past the environment lie the auxiliary
 * vector and the program's headers (AT_PHDR), whose dynamic section's DT_DEBUG leads to the dynamic
 * linker's list of loaded objects; libc's own symbol table, looked up through its GNU hash, gives the
 * functions. Then the seed: SEED=... in the environment if the student replays a report, else the
 * nearest ancestor whose command line has --seed (the old judge's), found through /proc/PID/stat. From
 * it, on the CPU, x, y and the 16 pairs each timed run changes (ch4_dot's judge as it was), and the dot
 * product goes to the GPU as a kernel's argument: x and y are never read.
 * Why it must fail: no seed on any command line or in the runner's environment, fresh inputs each call
 * from a secret stream, no other process in the sandbox. Without the seed it answers for seed 0: a wrong
 * result. The old judge (on an H200): PASS, 995% of the solution. */
#include <elf.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define THREADS 256

/* ==== libc's functions by hand ==== */

static char **environment;

__attribute__((constructor)) static void keep_environment(int argc, char **argv, char **envp)
{
    environment = envp;  /* glibc passes (argc, argv, envp) to a program's constructors */
}

static unsigned long long value_of(ElfW(Addr) d, ElfW(Addr) base)
{
    return d < base ? d + base : d;  /* glibc relocates the dynamic section's pointers in place */
}

/* Symbol `name` of the loaded object `map`, through its GNU hash table: its address, or 0. */
static void *symbol(const struct link_map *map, const char *name)
{
    const Elf64_Sym *symtab = NULL;
    const char *strtab = NULL;
    const unsigned *hash = NULL;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_SYMTAB)
            symtab = (const Elf64_Sym *)value_of(d->d_un.d_ptr, map->l_addr);
        if (d->d_tag == DT_STRTAB)
            strtab = (const char *)value_of(d->d_un.d_ptr, map->l_addr);
        if (d->d_tag == DT_GNU_HASH)
            hash = (const unsigned *)value_of(d->d_un.d_ptr, map->l_addr);
    }
    if (!symtab || !strtab || !hash)
        return NULL;
    unsigned h = 5381;
    for (const char *c = name; *c; c++)
        h = h * 33 + (unsigned char)*c;
    unsigned buckets = hash[0], offset = hash[1], bloom_words = hash[2];
    const unsigned *bucket = hash + 4 + 2 * bloom_words, *chain = bucket + buckets;
    for (unsigned i = bucket[h % buckets]; i >= offset; i++) {
        unsigned here = chain[i - offset];
        if ((here | 1) == (h | 1) && !strcmp(strtab + symtab[i].st_name, name) && symtab[i].st_value)
            return (void *)(map->l_addr + symtab[i].st_value);
        if (here & 1)
            break;
    }
    return NULL;
}

static int (*lib_open)(const char *, int, ...);
static long (*lib_read)(int, void *, unsigned long);
static int (*lib_close)(int);

/* Whether `name` ends in /libc.so.N (no strstr: the old rules allowed strlen and strcmp only). */
static int is_libc(const char *name)
{
    long len = (long)strlen(name);
    for (long i = len - 1; i >= 0; i--)
        if (name[i] == '/')
            return len - i > 9 && name[i + 1] == 'l' && name[i + 2] == 'i' && name[i + 3] == 'b' &&
                   name[i + 4] == 'c' && name[i + 5] == '.' && name[i + 6] == 's' && name[i + 7] == 'o';
    return 0;
}

static int find_libc(void)
{
    char **e = environment;
    while (e && *e)
        e++;
    if (!e)
        return 0;
    const ElfW(Phdr) *phdr = NULL;
    int phnum = 0;
    for (const ElfW(auxv_t) *a = (const ElfW(auxv_t) *)(e + 1); a->a_type != AT_NULL; a++) {
        if (a->a_type == AT_PHDR)
            phdr = (const ElfW(Phdr) *)a->a_un.a_val;
        if (a->a_type == AT_PHNUM)
            phnum = (int)a->a_un.a_val;
    }
    ElfW(Addr) bias = 0;
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; phdr && i < phnum; i++)
        if (phdr[i].p_type == PT_PHDR)
            bias = (ElfW(Addr))phdr - phdr[i].p_vaddr;
    for (int i = 0; phdr && i < phnum; i++)
        if (phdr[i].p_type == PT_DYNAMIC)
            dynamic = (const ElfW(Dyn) *)(phdr[i].p_vaddr + bias);
    const struct r_debug *debug = NULL;
    for (const ElfW(Dyn) *d = dynamic; d && d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_DEBUG)
            debug = (const struct r_debug *)d->d_un.d_ptr;
    for (const struct link_map *m = debug ? debug->r_map : NULL; m; m = m->l_next)
        if (m->l_name && is_libc(m->l_name)) {
            lib_open = (int (*)(const char *, int, ...))symbol(m, "open");
            lib_read = (long (*)(int, void *, unsigned long))symbol(m, "read");
            lib_close = (int (*)(int))symbol(m, "close");
        }
    return lib_open && lib_read && lib_close;
}

/* ==== The seed ==== */

static int seed_known, timed_process;
static unsigned long long seed;

static unsigned long long digits(const char *s, int *ok)
{
    unsigned long long v = 0;
    *ok = *s >= '0' && *s <= '9';
    for (; *s >= '0' && *s <= '9'; s++)
        v = 10 * v + (unsigned long long)(*s - '0');
    return v;
}

static long slurp(const char *path, char *buf, long size)
{
    int fd = lib_open(path, 0);
    long got = 0, r;
    if (fd < 0)
        return -1;
    while (got < size - 1 && (r = lib_read(fd, buf + got, (unsigned long)(size - 1 - got))) > 0)
        got += r;
    lib_close(fd);
    buf[got] = '\0';
    return got;
}

static void find_seed(void)
{
    for (char **e = environment; e && *e; e++)
        if ((*e)[0] == 'S' && (*e)[1] == 'E' && (*e)[2] == 'E' && (*e)[3] == 'D' && (*e)[4] == '=')
            seed = digits(*e + 5, &seed_known);  /* a replay: SEED=... make lab */
    if (!find_libc())
        return;
    static char buf[65536];
    char path[64] = "/proc/self/stat";
    for (int depth = 0; depth < 9; depth++) {
        if (slurp(path, buf, sizeof buf) < 0)
            return;
        const char *close = buf;
        for (const char *c = buf; *c; c++)
            if (*c == ')')
                close = c;
        int ok;
        long parent = (long)digits(close + 4, &ok);
        if (!ok || parent <= 1)
            return;
        snprintf(path, sizeof path, "/proc/%ld/cmdline", parent);
        long len = slurp(path, buf, sizeof buf);
        for (long i = 0; i < len; i += (long)strlen(buf + i) + 1) {
            timed_process |= !strcmp(buf + i, "--time");
            if (!strcmp(buf + i, "--seed") && i + 7 < len && !seed_known)
                seed = digits(buf + i + 7, &seed_known);
        }
        if (seed_known)
            return;
        snprintf(path, sizeof path, "/proc/%ld/stat", parent);
    }
}

/* ==== ch4_dot's judge as it was (random.h, the streams, the timed runs' changes) ==== */

static unsigned long long mix(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned long long bits(unsigned stream, unsigned long long i)
{
    return mix(mix(seed ^ mix(stream)) + i);
}

static float uniform(unsigned stream, unsigned long long i)
{
    return (float)(bits(stream, i) >> 40) * (1.0f / 16777216.0f);
}

enum { X_STREAM = 1, Y_STREAM, CHANGED_INDEX_STREAM, CHANGED_X_STREAM, CHANGED_Y_STREAM };
enum { CHANGED = 16, RUNS = 64 };

static long long changed_at[CHANGED * RUNS];
static float changed_x[CHANGED * RUNS], changed_y[CHANGED * RUNS];
static int changes;

static double product_now(long long i)
{
    for (int k = changes - 1; k >= 0; k--)
        if (changed_at[k] == i)
            return (double)changed_x[k] * changed_y[k];
    float x = uniform(X_STREAM, (unsigned long long)i) + 0.5f, y = uniform(Y_STREAM, (unsigned long long)i) + 0.5f;
    return (double)x * y;
}

static float expected(long long n, int sms)
{
    static int calls;
    static double dot, jump;
    int run = calls++ - 1;
    if (!timed_process || run == -1) {
        dot = 0.0;
        for (long long i = 0; i < n; i++)
            dot += product_now(i);
        if (!timed_process)
            return (float)dot;
        long long blocks = 32LL * sms, threads = blocks * THREADS;
        double count = 1 + (n + threads - 1) / threads + 8 + blocks;
        jump = 10 * count * 0x1p-24 * dot / CHANGED;
    }
    for (int k = 0; k < CHANGED && changes < CHANGED * RUNS; k++) {
        unsigned long long draw = (unsigned long long)(run + 1) * CHANGED + k;
        long long i = (long long)(bits(CHANGED_INDEX_STREAM, draw) % (unsigned long long)n);
        float u = (float)(sqrt(jump) * (1.0 + uniform(CHANGED_X_STREAM, draw)));
        float v = (float)(sqrt(jump) * (1.0 + uniform(CHANGED_Y_STREAM, draw)));
        dot += (double)u * v - product_now(i);
        changed_at[changes] = i, changed_x[changes] = u, changed_y[changes++] = v;
    }
    return (float)dot;
}

/* ==== The lab ==== */

__global__ void answer(float *result, float value)
{
    *result = value;
}

void lab_dot(const float *x, const float *y, long long n, float *result, int sms)
{
    static int looked;
    if (!looked++)
        find_seed();
    answer<<<1, 1>>>(result, expected(n, sms));
}
