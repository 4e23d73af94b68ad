/* A forgery, class 7 of issue 49 (a rule that lived only in the statement). ch3_events asks for a time
 * measured by the GPU with two events, "no clock of the host". This file creates no event: it times the
 * launches with the host's clock, from before the first launch to the return of cudaStreamSynchronize,
 * after a warm-up launch. The old rules refused clock_gettime by its name; this file calls the kernel's
 * own copy of it, __vdso_clock_gettime, at an address it computes: the auxiliary vector (past the
 * environment a constructor is given) holds the vDSO's ELF header, and its symbol table the function. No
 * system call, no libc function. Over many launches of tens of microseconds, and over the slow ones that
 * read pinned host memory, a host clock is within a few microseconds of the events; on the first call's
 * single launch it adds the launch's and the wait's latency. The old judge (on an H200): PASS.
 * Why it must fail (if it does): a host clock's time of a launch includes the host's queueing and waking,
 * which the events leave out; only a judge that times launches short enough for those to show, with
 * bounds tight enough, sees it. Marked so that a GPU run says which it is. */
#include <elf.h>
#include <link.h>
#include <string.h>
#include <time.h>

#define THREADS 256

/* Given: chapter 2's reduction, one partial sum per block (a grid-stride loop, then a tree). */
__global__ void partial_reduce(const float *array, long long n, float *partial_sums)
{
    __shared__ float s_block[THREADS];
    int tid = threadIdx.x;
    float s_thread = 0.0f;
    for (long long i = tid + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)blockDim.x * gridDim.x)
        s_thread += array[i];
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        partial_sums[blockIdx.x] = s_block[0];
}

/* ==== The host's clock, from the vDSO ==== */

static char **environment;

__attribute__((constructor)) static void keep_environment(int argc, char **argv, char **envp)
{
    environment = envp;
}

typedef int (*clock_function)(int, struct timespec *);

static clock_function find_clock(void)
{
    char **e = environment;
    while (e && *e)
        e++;
    if (!e)
        return NULL;
    const unsigned char *vdso = NULL;
    for (const ElfW(auxv_t) *a = (const ElfW(auxv_t) *)(e + 1); a->a_type != AT_NULL; a++)
        if (a->a_type == AT_SYSINFO_EHDR)
            vdso = (const unsigned char *)a->a_un.a_val;
    if (!vdso)
        return NULL;
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)vdso;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(vdso + eh->e_phoff);
    ElfW(Addr) base = 0;
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type == PT_LOAD && !base)
            base = (ElfW(Addr))vdso - ph[i].p_vaddr;
        if (ph[i].p_type == PT_DYNAMIC)
            dynamic = (const ElfW(Dyn) *)(vdso + ph[i].p_offset);
    }
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const unsigned *hash = NULL, *gnu = NULL;  /* the SysV hash's second word: the number of symbols */
    for (const ElfW(Dyn) *d = dynamic; d && d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_SYMTAB)
            symtab = (const ElfW(Sym) *)(base + d->d_un.d_ptr);
        if (d->d_tag == DT_STRTAB)
            strtab = (const char *)(base + d->d_un.d_ptr);
        if (d->d_tag == DT_HASH)
            hash = (const unsigned *)(base + d->d_un.d_ptr);
        if (d->d_tag == DT_GNU_HASH)
            gnu = (const unsigned *)(base + d->d_un.d_ptr);
    }
    unsigned count = hash ? hash[1] : 0;
    if (!hash && gnu) {  /* the GNU hash only: the last chain's end is the number of symbols */
        const unsigned *bucket = gnu + 4 + 2 * gnu[2], *chain = bucket + gnu[0];
        for (unsigned b = 0; b < gnu[0]; b++)
            count = bucket[b] + 1 > count ? bucket[b] + 1 : count;
        while (count > gnu[1] && !(chain[count - 1 - gnu[1]] & 1))
            count++;
    }
    for (unsigned i = 0; symtab && strtab && i < count; i++)
        if (symtab[i].st_value && !strcmp(strtab + symtab[i].st_name, "__vdso_clock_gettime"))
            return (clock_function)(base + symtab[i].st_value);
    return NULL;
}

static double now_ms(clock_function clock)
{
    struct timespec t = {0, 0};
    clock(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The runner calls this with array (n floats) and partial_sums (blocks floats) on the GPU, and a stream
 * it made. Returns the milliseconds of one launch, the mean of `launches` launches. */
float lab_time_launches(const float *array, long long n, float *partial_sums, int blocks, int launches,
                        cudaStream_t stream)
{
    static clock_function clock;
    if (!clock)
        clock = find_clock();
    partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);  /* the warm-up */
    cudaStreamSynchronize(stream);
    if (!clock)
        return 0.0f;
    double start = now_ms(clock);
    for (int k = 0; k < launches; k++)
        partial_reduce<<<blocks, THREADS, 0, stream>>>(array, n, partial_sums);
    cudaStreamSynchronize(stream);
    return (float)((now_ms(clock) - start) / launches);
}
