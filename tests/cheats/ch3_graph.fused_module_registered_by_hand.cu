/* A forgery, class 4 of issue 49 (kernels registered by hand). ch3_graph gives its kernels and allows
 * no other: the old rules compared the PTX of the file's kernels with the hand-out's, and the file's
 * neighbours, mix and queue_step below are the hand-out's, unchanged. But lab_replay runs none of them:
 * it launches a kernel of a module the file registers itself, from bytes it carries (a fat binary of
 * PTX, built from the source below), with CUDA's own __cudaRegisterFatBinary and __cudaRegisterFunction.
 * The old rules allowed every __cuda name and refused a __cudaRegister call only from a function whose
 * name lacked nvcc's callback's: this constructor's name holds it. The module's one kernel runs all
 * `replays` steps of the 8 arrays in one launch, a block an array in shared memory:
 *     extern "C" __global__ void fused_steps(unsigned *a, unsigned *b, int m, int replays)
 *     {   (a and b of block's array into shared memory; for each step and round, b[i] = a[i] + a[i + 1],
 *          barrier, a[i] = (b[i] * 2654435761u) ^ (b[i - 1] + 2 * blockIdx.x + round), barrier; back) }
 * It is right, and far faster than the graph: the old judge (on an H200): PASS, 2377% of the solution.
 * Why it must fail: every module the runner carries is accounted for and none other may run; a call of
 * __cudaRegisterFatBinary from the file's own code, or a fat binary in its data, is refused without a
 * GPU. */

#define STREAMS 8
#define ROUNDS 2
#define THREADS 256

/* b[i] = a[i] + a[i + 1], around the ring of m elements. */
__global__ void neighbours(const unsigned *a, unsigned *b, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        b[i] = a[i] + a[i + 1 < m ? i + 1 : 0];
}

/* a[i] = b[i] scrambled, mixed with b[i - 1] (around the ring) and the salt. */
__global__ void mix(const unsigned *b, unsigned *a, int m, unsigned salt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        a[i] = (b[i] * 2654435761u) ^ (b[i > 0 ? i - 1 : m - 1] + salt);
}

/* One step: every array through ROUNDS rounds of neighbours then mix, array k on streams[k]; the other
 * streams wait for an event of streams[0] first (fork), and streams[0] waits for an event of each at the
 * end (join), so that a capture of streams[0] holds the whole step. */
void queue_step(unsigned *a, unsigned *b, int m, cudaStream_t streams[STREAMS], cudaEvent_t events[STREAMS])
{
    int blocks = (m + THREADS - 1) / THREADS;
    cudaEventRecord(events[0], streams[0]);
    for (int k = 1; k < STREAMS; k++)
        cudaStreamWaitEvent(streams[k], events[0], 0);
    for (int k = 0; k < STREAMS; k++) {
        unsigned *ak = a + (long long)k * m, *bk = b + (long long)k * m;
        for (int round = 0; round < ROUNDS; round++) {
            neighbours<<<blocks, THREADS, 0, streams[k]>>>(ak, bk, m);
            mix<<<blocks, THREADS, 0, streams[k]>>>(bk, ak, m, (unsigned)(k * ROUNDS + round));
        }
    }
    for (int k = 1; k < STREAMS; k++) {
        cudaEventRecord(events[k], streams[k]);
        cudaStreamWaitEvent(streams[0], events[k], 0);
    }
}

/* ==== The module of its own: a fat binary (PTX for compute_75, compressed), registered by hand ==== */

static const unsigned long long module_image[152] __attribute__((aligned(16))) = {
    0x00100001ba55ed50ull, 0x00000000000004b0ull, 0x0000005001010001ull, 0x0000000000000460ull, 0x000000400000045bull,
    0x0000004b00090000ull, 0x0000000000000000ull, 0x0000000000008011ull, 0x0000000000000000ull, 0x0000000000001074ull,
    0x0000000000000048ull, 0x0000000000000000ull, 0x8d0f7460fd2fb528ull, 0x6f302370a7a60022ull, 0x3e19e3054a1b9c74ull,
    0xf236991263b85a3full, 0xbf64949494dc10e4ull, 0x301eb0c0ea315dcaull, 0x0a00600070007406ull, 0x65b1a77b0c0c0c88ull,
    0xb540f35a6a244812ull, 0xd8526783470396b5ull, 0x72cea96149833eb6ull, 0x524d03d85240d0f0ull, 0x2c0d62cb6a681063ull,
    0x688ed986386454cdull, 0x4a012da91a99a20cull, 0x81c22a20798a2a82ull, 0x9c8a0c6a04954c51ull, 0x6284455066d91508ull,
    0x9d8b69a79e9a0a28ull, 0x6aa6a6410558a081ull, 0x4135089324c7b5cbull, 0x270b5a8a8e056d12ull, 0xa30e1930e91f93a3ull,
    0xb59a79ef9f2d6a07ull, 0x0a25fa5ad7237ff4ull, 0x0c090971945ae863ull, 0x292861c99ac010b3ull, 0xd551055269041208ull,
    0xd620228b512727ebull, 0x899fb0a6db54e992ull, 0xb1026241aa9a44f6ull, 0x6d2089338d460616ull, 0x43cb586892a6b552ull,
    0xf831838797713335ull, 0xe8dafb1e72279499ull, 0x87bdf1116f0ca868ull, 0xeb796b13cbccccacull, 0x4befaff9fe080b78ull,
    0x636dd9518afbaf4aull, 0x0e1b70fb3aeeeec1ull, 0xabfb420a4b7be21full, 0xe768ffbe79d6e7dbull, 0x5454d5149d5557d6ull,
    0xd7c63d44114a9c96ull, 0x89a7fbfc3306fff0ull, 0x50906b1d5151e5afull, 0x2accd0d59c6a6d50ull, 0xb5ac5d6b00047dd2ull,
    0x1fff2e981ab4d054ull, 0x42a3bfebef36b726ull, 0x74f43fe7e07d4cdeull, 0xdccdefeddcf98abfull, 0x5d9fd7dbceeeeefeull,
    0x9d17d1d3dd5d3d7dull, 0x6eeef6fef6eebf7full, 0xdbdcdcda7c4c55f4ull, 0x733f5db1aed9d8daull, 0x81bab2f33373bfb3ull,
    0x20a22237bd51a866ull, 0x058101c30a492829ull, 0x80120769d8c82884ull, 0x645a0c3884906962ull, 0x8524a4949185154cull,
    0x055b07a05295cae6ull, 0xf1b664524ac42e91ull, 0xd927ad45f1f70b66ull, 0xe08906a1fcd3676dull, 0x17f6347d7b0fd46dull,
    0xe1bd7ae342679c67ull, 0xf67a37a957478889ull, 0x07867e761ae4ce90ull, 0x13549c9dd722a374ull, 0xbece0c913337f008ull,
    0xd4c3afbef30d9561ull, 0xeb670bf132352500ull, 0xe1afc39b5dd4297bull, 0x0ce3307f66ad4a4bull, 0x709d0a2bdc02a914ull,
    0x940eba1e94dfd004ull, 0xa8dc0aa997f3304cull, 0x458f18b612890766ull, 0x46d2d9b988de3075ull, 0x20000c425c9a9c66ull,
    0x42205486f323ecadull, 0x169825cc8d09546cull, 0x601484227f88218full, 0x3c11a6317e4447a4ull, 0x1273af403216f56eull,
    0x9010f0073581f2adull, 0x0d0b123887b215c1ull, 0x56269626b5e42bc6ull, 0x7f6f38b4f19fa9ddull, 0x004a83390cfa9e29ull,
    0xd19976eca9e4a4d1ull, 0xe615f270942703d8ull, 0x4047d8b4693fb901ull, 0xf5e84a29733e0bc2ull, 0x1bed580ef602f934ull,
    0x9070570bce4c3ddfull, 0x7c161027a8534d76ull, 0xcdb3c4d2f5b2920eull, 0xc05209b7894cd0f4ull, 0xf884fd424f6701a2ull,
    0x4fff3b08e3ff1ec7ull, 0x03ae5878793baba1ull, 0xcde25a1dc8dca908ull, 0x143c0c4d110a7db3ull, 0x8fcecfcdde3549caull,
    0xa42f0d73b9934894ull, 0xee2cd5b7549fe9a1ull, 0x14445a55746a45a0ull, 0x21801502fd82db7eull, 0x7c9f328f0189bdf4ull,
    0x581ed2bedfe6b649ull, 0x611ce5160d0d16aeull, 0x909f2b4190c6d40cull, 0xaa9c9a04e8d4ef16ull, 0x3e5259b501811b93ull,
    0x821d3787335c12f4ull, 0xe413bb7821d5fce4ull, 0x81c226d3e35cfb85ull, 0x3ab384767212e2f8ull, 0x137a66a90d7adf75ull,
    0xb3d29ba56720bb53ull, 0x49cb32132b68f452ull, 0x10f0b5ad90e40f88ull, 0x9f332c6088e55421ull, 0x9e70803f4c8ed9bfull,
    0x50be1308591ad885ull, 0x875bb2f6473ee49eull, 0x0ddeb4080d03e26cull, 0x7700f41527252244ull, 0xedda438a06da1c85ull,
    0xde2dc95396143a35ull, 0xb18c246db932027cull, 0xb58715cc690a009cull, 0x448bf02e74d57286ull, 0x6892944d851ea8c2ull,
    0x107e8eac3988c9a6ull, 0x00000000000bcedcull,
};

extern "C" {
extern void **__cudaRegisterFatBinary(void *fatCubin);
extern void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
extern void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim,
                                   dim3 *gDim, int *wSize);
}

static const struct {
    int magic, version;
    const unsigned long long *data;
    void *unused;
} wrapper = {0x466243b1, 1, module_image, 0};

static const char fused_steps = 0;  /* the host's handle of the kernel: any address of the file's own */
static int registered;

__attribute__((constructor)) static void hand__nv_cudaEntityRegisterCallback(void)
{
    void **handle = __cudaRegisterFatBinary((void *)&wrapper);
    __cudaRegisterFunction(handle, &fused_steps, (char *)"fused_steps", "fused_steps", -1, 0, 0, 0, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
    registered = 1;
}

/* The runner calls this with a and b (STREAMS x m unsigned each) on the GPU, and the STREAMS streams and
 * events it made. */
void lab_replay(unsigned *a, unsigned *b, int m, int replays, cudaStream_t streams[STREAMS],
                cudaEvent_t events[STREAMS])
{
    if (registered && m <= 4096) {
        void *args[] = {&a, &b, &m, &replays};
        cudaLaunchKernel((const void *)&fused_steps, dim3(STREAMS), dim3(1024), args, 0, streams[0]);
    } else {  /* (the lab's way, where the module cannot hold the arrays) */
        cudaGraph_t graph;
        cudaGraphExec_t step;
        cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal);
        queue_step(a, b, m, streams, events);
        cudaStreamEndCapture(streams[0], &graph);
        cudaGraphInstantiate(&step, graph, 0);
        for (int r = 0; r < replays; r++)
            cudaGraphLaunch(step, streams[0]);
        cudaGraphExecDestroy(step);
        cudaGraphDestroy(graph);
    }
    cudaStreamSynchronize(streams[0]);
}
