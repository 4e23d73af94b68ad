/* A forgery, class 4 of issue 49 (kernels the rules never saw). ch5_tiled forbids tensor cores. This
 * file's own kernel is the statement's, in fp32, and is what runs at the small shapes. At the large one
 * (k of 2048 or more) it runs a TF32 tensor-core kernel (mma.sync.m16n8k8) that is in no cubin of the
 * runner: it carries it as a fat binary of PTX in its data, scrambled (no byte of it looks like a module
 * until the file unscrambles it), and loads and launches it through CUDA's driver API, cuModuleLoadData,
 * cuModuleGetFunction and cuLaunchKernel, at addresses it computes: the dynamic linker's list of loaded
 * objects (from the program's headers, found past the environment in the auxiliary vector) leads to
 * libcuda.so.1, and its symbol table to the three functions. The object names none of them, and calls
 * no launch function the runner could wrap. With positive inputs and a tolerance of k fp32 roundings,
 * TF32's products pass the check at k = 4096. The old judge (on an H200): PASS, 353% of the solution.
 * The module's kernel: each warp a 16 x 32 tile of C, four m16n8k8 products a step of 8 along k,
 * fragments from global memory as ch5_mma's statement lays them out, rounded with cvt.rna.tf32.f32.
 * Why it must fail: its products are TF32's. Nothing in the object shows the module, so no static rule
 * sees it; the judge's inputs have either sign and full mantissas, and its bound is fp32's, which TF32
 * exceeds ten times over (labs/judge/product.h, as ch5_cublas's): a wrong result. */
#include <elf.h>
#include <link.h>
#include <string.h>

#define TILE 16

/* ==== The module: PTX for compute_80 in a compressed fat binary, from the kernel described above, each
 * 64-bit word XORed with (i + 1) times a constant, so that no byte of it looks like a module ==== */

static const unsigned long long scrambled[223] = {
    0x9e2779b8c51f9145ull, 0x3c6ef372fe94fec2ull, 0xdaa66d7c7cde743eull, 0x78dde6e5fd29f6ccull, 0x171560df7c746afbull,
    0xb54cda08fbb7e87eull, 0x538454127b096493ull, 0xf1bbcdcbfa5360b9ull, 0x8ff34785799e5cbdull, 0x2e2ac13ef8e8c7c2ull,
    0xcc623af8783354afull, 0x6a99b4b1f77dd0fcull, 0x4dcf3e0b8be7f839ull, 0x28288bb30f14c912ull, 0xe5bff663835144e8ull,
    0xe377fb20477faad6ull, 0x1edd7b98c8e77e04ull, 0x85aea30ef0315df4ull, 0xb51e89c4e1879d9eull, 0xed19ebfeb2428d2eull,
    0x3c47609593155078ull, 0xfc942d593a5a0bddull, 0x5f1f7379fbfd8d79ull, 0xe1fc3306b8e5e950ull, 0x37b60670e85abeecull,
    0x83b29a4efb88e99eull, 0xb531ca75459f862dull, 0x5481678fbda6c00cull, 0xf0aad9056650036full, 0x1cc957b0f0e291c2ull,
    0x68dda524b8413a4eull, 0x7468b84cb769a40dull, 0x77b0e81de7bf9c71ull, 0x63274e2847c06652ull, 0xc3448cc625e8d09dull,
    0x9dab4f07023a3bd6ull, 0xda16d37614262782ull, 0xf65a06aeda972023ull, 0x8e405d883e3f432dull, 0x16ae4fe8a6818702ull,
    0x09e152c7f0c5a58full, 0x4939910451ba9a73ull, 0xc37c513bd2148d98ull, 0x9a4504997a71c255ull, 0xc7fb843d51114938ull,
    0xd0480b8b9394b522ull, 0x4ae38dc3c53b74aaull, 0x40947bf36336f2cdull, 0xf41a46901c528c9aull, 0x9dedb4b3559e6538ull,
    0xbe3303a4cd84a8d6ull, 0xcaf96f1f2269733bull, 0x4520d64f2e4abddfull, 0xef4b946170a89d4cull, 0x5992a6fb1ac72c07ull,
    0x4f3a4597d567c29eull, 0x8c3033db0fefc519ull, 0x4db116cd0219a9e0ull, 0x3f3e41b0b1a29c8full, 0xcb682efe3e9e839eull,
    0x2987fd8cacd94cd8ull, 0xf496c35966ff808full, 0x9d070111a4ead70cull, 0x45a80198e5e47f5full, 0x28882fa49c627dadull,
    0xd2f5f9ad59b475b1ull, 0x7d9083fd01ffea33ull, 0x8cb773bd9c4c8cfdull, 0xb2dbd24c86027e81ull, 0xbc91d322e8111829ull,
    0x98aab9bbda31c22dull, 0xf6e34bacbcb59e80ull, 0xa0696803bb859e63ull, 0xe01cd8a3767083e5ull, 0xbf68cc124aec2894ull,
    0x1494e4d7d6b84770ull, 0x6c495badd58ebbb9ull, 0xfd3acb3e341a66dbull, 0x04a85be49d47f2d6ull, 0xd7bf8e2a4998284eull,
    0xc72b79cde15a8969ull, 0x67a887053f5d1672ull, 0xb077e9bccbb0c104ull, 0x3c5e8d8d2f1bda78ull, 0xdf76f342eb864f4full,
    0x6cdefc9ff856ff07ull, 0xe52cf4a06faaa06eull, 0xba25102d0969c1dfull, 0xbc90b317b361b1a6ull, 0xfd2849b499c93055ull,
    0x98ac50621d4e7aedull, 0x9aac3ab9b536991eull, 0x6eae19e32cd2f2cdull, 0xd09883b99951bf72ull, 0x7ce7c7531800c72bull,
    0x305b3fcdf3c7f7cfull, 0xc491ee62da906ad8ull, 0xd22a09a939bf6180ull, 0xe9d187b38d85546aull, 0x1a08285633b0385full,
    0xe8666719692b7348ull, 0x4037deb4bdf7582cull, 0x72b594873a970e05ull, 0x9d77da859c71069cull, 0x382989240af3c786ull,
    0x662b911648b5a0f3ull, 0x1bc388069b48fb40ull, 0x35cd0869a8e74d66ull, 0x03f4dd129df6f29bull, 0x8e0f14acec05914aull,
    0x38198e606e690585ull, 0x81e501ae36cb2d30ull, 0xe4a0cb6023f06cf5ull, 0xf3c04ffbc17f2e79ull, 0xcd950133de71f36full,
    0x7db37272d54444b6ull, 0xdd99f52fb6259b43ull, 0x3c36b1cc63146898ull, 0xe9d5681179760584ull, 0x7185b103d3c14c5dull,
    0xff61e86c2b523c14ull, 0xd27ebba1a90e9096ull, 0xd9eb85774f1b4584ull, 0x30b7a777413d187aull, 0xf530468f8b803f50ull,
    0xc0f729684fc7fa54ull, 0xc8e47b7c2a06482bull, 0x2446f15763ba3641ull, 0x8d96bc11a3bce9c8ull, 0xb35d69737c03b900ull,
    0x1a52a18b6f0931b9ull, 0xfc00729a410e073full, 0xfdda5d8a6a6e3f1bull, 0x5b8f879e31823173ull, 0xeb7befd7d393b1f9ull,
    0x8dc9a42a4853fb69ull, 0xf475cdfa63cedae1ull, 0xd7aac5de0f57c16aull, 0xf9400c6430e52073ull, 0x76e9f62c90cde00eull,
    0x10427e32e0d3c91dull, 0x6fd3f0aa3147de14ull, 0xf10ab95e5fb44566ull, 0x39f109b78cfd3753ull, 0xf41780f1db96e225ull,
    0x476cb6866bf28faaull, 0xb6e65a3e53fdf93bull, 0xde203b1c1e6b4be1ull, 0x6c94dbe4396b925eull, 0xd2dcc705156dc658ull,
    0x04ebc93ebe1cf7ecull, 0xdf84a3449f49de9aull, 0x9808fd3848aeb2e9ull, 0x73bea226402a5f4eull, 0x631082315b88ee6full,
    0x7d383f7fdf38252aull, 0xe5ff745a64c4edb0ull, 0x807dbe400c4bc75cull, 0x533f7aad275e62ebull, 0xa9f659233590b8d8ull,
    0xd064d93a3d271cf3ull, 0x1639e0440df669d0ull, 0x50c75fd8b8b15cbfull, 0xf49c0f3022e0743bull, 0x88cf70769d6bf156ull,
    0x20418d3c969fa924ull, 0x2783c79be04c39d5ull, 0xe452df4a2783a2bbull, 0x3dbc000f0f4c459bull, 0x8624de3f3046a11aull,
    0xf81cce5f3d40ceb1ull, 0x4ca9d22742c4b54full, 0xd9b8595d11cacd8cull, 0xa521d573ada96fc9ull, 0xfdbe1b0c701a8efdull,
    0xa446626d698ea397ull, 0x0964a618893d200cull, 0xa76f471eda85a613ull, 0xbeb476dba465195cull, 0xbcf790e609a92e7bull,
    0x1231c9d0e87bebbbull, 0x9f72f9ce7823c764ull, 0x9b25ff0b8ab94d85ull, 0x84ba35189c301358ull, 0xe1bb93227a67f911ull,
    0xfb0e7558fa8b299eull, 0x94a10e84413114f8ull, 0x4027f6e81d5750d7ull, 0x123920c1e1fef71eull, 0x710ecb7d3b1effd5ull,
    0xca164ebfc52208d8ull, 0x33bb48cb0f45e380ull, 0x7f86247cf1f42b67ull, 0x0444b8cc56e7a1a0ull, 0x181cb8966aa26a38ull,
    0xd61d52fb5ef447fcull, 0x5b08597294a3293eull, 0x8861a966efc5c06eull, 0x29f60765b2eeed15ull, 0x959eb36ba4842a7cull,
    0x1c321e2c6e4ebd6aull, 0xaea89edcbcca4f78ull, 0xe8c157140994db68ull, 0x5532568c207cbec6ull, 0x935522a35470260eull,
    0xb6d74dd83fd76776ull, 0x3217a3320cd6fb06ull, 0x20a31b8112e0cc12ull, 0xb5f45137a3464173ull, 0x0de5d1c7b34f98d7ull,
    0x2faef98a6b7c679bull, 0x0b31c24f5518de1dull, 0xfae748a68a01ad2dull, 0x480609eec6ffde2aull, 0xf85391d6b99d9903ull,
    0x1e440305b4bca800ull, 0xd675eb2e883de92eull, 0xe540152813cc2ad3ull, 0x10c2075e96747531ull, 0xcb885a3a192b0eabull,
    0x23c5433c8fe7c6d9ull, 0x688467e734f8d309ull, 0xd2530895e1e2f47full,
};

static unsigned long long module_image[sizeof scrambled / sizeof scrambled[0]];

static void unscramble(void)
{
    for (unsigned long long i = 0; i < sizeof scrambled / sizeof scrambled[0]; i++)
        module_image[i] = scrambled[i] ^ 0x9e3779b97f4a7c15ull * (i + 1);
}

/* ==== The driver's functions, by computed addresses ==== */

typedef int (*load_data)(void **module, const void *image);
typedef int (*get_function)(void **function, void *module, const char *name);
typedef int (*launch)(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                      unsigned shared_bytes, void *stream, void **params, void **extra);

static char **environment;

__attribute__((constructor)) static void keep_environment(int argc, char **argv, char **envp)
{
    environment = envp;
}

static unsigned long long value_of(ElfW(Addr) d, ElfW(Addr) base)
{
    return d < base ? d + base : d;
}

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

/* Whether the loaded object's name ends in /libcuda.so.1. */
static int is_libcuda(const char *name)
{
    long len = (long)strlen(name);
    return len >= 13 && !strcmp(name + len - 13, "/libcuda.so.1");
}

static void *tensor_kernel;
static launch start;

static void load_the_module(void)
{
    char **e = environment;
    while (e && *e)
        e++;
    if (!e)
        return;
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
        if (m->l_name && is_libcuda(m->l_name)) {
            load_data load = (load_data)symbol(m, "cuModuleLoadData");
            get_function get = (get_function)symbol(m, "cuModuleGetFunction");
            start = (launch)symbol(m, "cuLaunchKernel");
            void *module = NULL;
            if (load && get && load(&module, module_image) == 0)
                get(&tensor_kernel, module, "tf32_product");
        }
}

/* ==== The file's own kernel: the statement's, in fp32 ==== */

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[TILE][TILE], b[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        a[ty][tx] = row < m && ka < k ? A[(long long)row * k + ka] : 0.0f;
        b[ty][tx] = kb < k && col < n ? B[(long long)kb * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += a[ty][i] * b[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(long long)row * n + col] = sum;
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    static int tried;
    if (k >= 2048 && !tried++) {
        unscramble();
        load_the_module();
    }
    if (k >= 2048 && tensor_kernel && start) {
        void *params[] = {&A, &B, &C, &m, &n, &k};
        start(tensor_kernel, (unsigned)((n + 31) / 32), (unsigned)((m + 63) / 64), 1, 128, 1, 1, 0, NULL, params,
              NULL);
        return;
    }
    dim3 threads(TILE, TILE), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
