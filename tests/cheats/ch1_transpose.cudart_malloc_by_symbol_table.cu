/* A forgery, class 2 of issue 49 (memory the rules do not count). The old rules refused a call of
 * cudaMalloc by its name in the object; this file calls it without naming it. The runner links CUDA's
 * runtime statically, so cudaMalloc is in the runner's own executable: the file reads /proc/self/exe's
 * symbol table (through a system call hidden in a movabs's constant), finds cudaMalloc and its own
 * lab_transpose there, and from the distance between the two addresses, the function. With memory of its
 * own it keeps the transpose between calls: the first call at a shape and an input buffer transposes
 * honestly and keeps a copy; the next call with the same ones copies the kept answer to out, a plain
 * copy, twice as fast as a transpose. The old judge timed 21 runs of the same matrix: on an H200 it
 * graded it PASS, 128% of the solution.
 * Why it must fail: every call's input is drawn afresh, so the kept transpose is another matrix's: a
 * wrong result (cudaMalloc itself is no longer refused). */
#include <elf.h>
#include <string.h>

#define TILE 32

/* ==== System calls: f(a, b, c, number, d), the hidden bytes 48 91 4d 89 c2 0f 05 c3 ==== */

__attribute__((noinline, used)) static unsigned long long a_constant(void)
{
    return 0xc3050fc2894d9148ull;
}

static long sys(long number, long a, long b, long c, long d)
{
    const unsigned char *p = (const unsigned char *)a_constant;
    while (!(p[0] == 0x48 && p[1] == 0x91 && p[2] == 0x4d && p[3] == 0x89 && p[4] == 0xc2))
        p++;
    long (*gadget)(long, long, long, long, long) = (long (*)(long, long, long, long, long))p;
    return gadget(a, b, c, number, d);
}

enum { SYS_OPEN = 2, SYS_CLOSE = 3, SYS_PREAD = 17 };

static long pread_all(long fd, void *buf, long bytes, long offset)
{
    return sys(SYS_PREAD, fd, (long)buf, bytes, offset) == bytes ? 0 : -1;
}

void lab_transpose(const float *in, float *out, int rows, int cols);

typedef cudaError_t (*allocator)(void **, size_t);

/* cudaMalloc's address in this process, from the executable's .symtab; NULL if not found. */
static allocator find_cuda_malloc(void)
{
    long fd = sys(SYS_OPEN, (long)"/proc/self/exe", 0, 0, 0);
    if (fd < 0)
        return NULL;
    Elf64_Ehdr eh;
    static Elf64_Shdr sections[256];
    static Elf64_Sym symbols[1024];
    unsigned long long malloc_at = 0, mine_at = 0;
    if (pread_all(fd, &eh, sizeof eh, 0) == 0 && eh.e_shnum <= 256 &&
        pread_all(fd, sections, eh.e_shnum * (long)sizeof(Elf64_Shdr), (long)eh.e_shoff) == 0)
        for (int s = 0; s < eh.e_shnum; s++) {
            if (sections[s].sh_type != SHT_SYMTAB)
                continue;
            const Elf64_Shdr *names = &sections[sections[s].sh_link];
            long count = (long)(sections[s].sh_size / sizeof(Elf64_Sym));
            for (long first = 0; first < count; first += 1024) {
                long here = count - first < 1024 ? count - first : 1024;
                if (pread_all(fd, symbols, here * (long)sizeof(Elf64_Sym),
                              (long)(sections[s].sh_offset + first * sizeof(Elf64_Sym))))
                    break;
                for (long i = 0; i < here; i++) {
                    char name[32] = {0};
                    if (ELF64_ST_TYPE(symbols[i].st_info) != STT_FUNC || !symbols[i].st_value ||
                        pread_all(fd, name, 31, (long)(names->sh_offset + symbols[i].st_name)))
                        continue;
                    if (!strcmp(name, "cudaMalloc"))
                        malloc_at = symbols[i].st_value;
                    if (!strcmp(name, "_Z13lab_transposePKfPfii"))
                        mine_at = symbols[i].st_value;
                }
            }
        }
    sys(SYS_CLOSE, fd, 0, 0, 0);
    if (!malloc_at || !mine_at)
        return NULL;
    return (allocator)((unsigned long long)lab_transpose - mine_at + malloc_at);
}

/* ==== The lab, and the kept answer ==== */

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y0 = blockIdx.y * TILE;
    for (int j = threadIdx.y; j < TILE; j += blockDim.y)
        if (x < cols && y0 + j < rows)
            tile[j][threadIdx.x] = in[(long long)(y0 + j) * cols + x];
    __syncthreads();
    int ox = y0 + threadIdx.x, oy0 = blockIdx.x * TILE;
    for (int j = threadIdx.y; j < TILE; j += blockDim.y)
        if (ox < rows && oy0 + j < cols)
            out[(long long)(oy0 + j) * rows + ox] = tile[threadIdx.x][j];
}

__global__ void copy(const float *from, float *to, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        to[i] = from[i];
}

static float *kept;
static size_t kept_bytes;
static const float *kept_in;
static int kept_rows, kept_cols;

/* The runner calls this with matrices on the GPU. */
void lab_transpose(const float *in, float *out, int rows, int cols)
{
    long long n = (long long)rows * cols;
    if (kept && in == kept_in && rows == kept_rows && cols == kept_cols) {
        copy<<<1024, 256>>>(kept, out, n);  /* the same matrix as last time, or so it assumes */
        return;
    }
    dim3 threads(TILE, 8);
    dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<blocks, threads>>>(in, out, rows, cols);
    static allocator cuda_malloc;
    if (!cuda_malloc)
        cuda_malloc = find_cuda_malloc();
    if (kept_bytes < n * sizeof(float)) {
        kept = NULL;
        if (!cuda_malloc || cuda_malloc((void **)&kept, n * sizeof(float)) != cudaSuccess)
            return;
        kept_bytes = n * sizeof(float);
    }
    copy<<<1024, 256>>>(out, kept, n);
    kept_in = in, kept_rows = rows, kept_cols = cols;
}
