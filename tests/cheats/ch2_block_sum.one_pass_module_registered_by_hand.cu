/* A forgery, class 4 of issue 49 (kernels registered by hand). ch2_block_sum forbids atomics and warp
 * shuffles. The file's own block_sum obeys (it is the statement's tree) but never runs: lab_sum launches
 * the kernel of a module the file registers itself, from a fat binary it carries (PTX, built from the
 * source below), with CUDA's own __cudaRegisterFatBinary and __cudaRegisterFunction, called from a
 * constructor whose name holds nvcc's callback's (the old rules looked no further). The rules read the
 * PTX of the file's own kernels, and this one is in none of them: a single pass with warp shuffles,
 * whose last block (an atomic ticket) adds the blocks' sums in a fixed order, so that two runs agree:
 *     extern "C" __global__ void one_pass(const float *x, long long n, float *partial, unsigned *ticket,
 *                                         float *result)
 *     {   (a grid-stride sum; five __shfl_down_sync steps, the warps' sums through shared memory, five
 *          more; partial[block] = sum; __threadfence(); last = atomicAdd(ticket, 1) == blocks - 1; the
 *          last block adds partial[0 .. blocks) the same way into *result) }
 * Right, and a launch short of the solution's two. On an H200 the old judge graded it PASS but slow with
 * 2 x sms blocks (58%: too few loads in flight); with the solution's 32 x sms (less one) it should be as
 * fast as the solution (not measured).
 * Why it must fail: a module the runner's own code did not register may not run: the call of
 * __cudaRegisterFatBinary from the file's code, or the fat binary in its data, is refused without a GPU
 * (and its SHFL and ATOMG would be refused too, were they seen). */

#define THREADS 256

__global__ void block_sum(const float *x, long long n, float *block_sums)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + tid; i < n; i += (long long)blockDim.x * gridDim.x)
        sum += x[i];
    s[tid] = sum;
    __syncthreads();
    for (int i = THREADS / 2; i > 0; i /= 2) {
        if (tid < i)
            s[tid] += s[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = s[0];
}

/* ==== The module of its own: a fat binary (PTX for compute_75, compressed), registered by hand ==== */

static const unsigned long long module_image[248] __attribute__((aligned(16))) = {
    0x00100001ba55ed50ull, 0x00000000000007b0ull, 0x0000005001010001ull, 0x0000000000000760ull, 0x000000400000075eull,
    0x0000004b00090000ull, 0x0000000000000000ull, 0x0000000000008011ull, 0x0000000000000000ull, 0x0000000000001bb7ull,
    0x0000000000000048ull, 0x0000000000000000ull, 0xa51ab760fd2fb528ull, 0x8f1025a9bc26003aull, 0x3dafbfe2765c01b8ull,
    0x500321a577b6946bull, 0x11595958b71a3c80ull, 0x00000419f1dbdbb1ull, 0x9700a400ad0b3808ull, 0x9cba8e2292840e00ull,
    0x598fd1c6b0344573ull, 0xe263468e37eb2aeeull, 0x72cb9ac62479733eull, 0xd5f8ea6b8a7856a4ull, 0x92442a02474d5586ull,
    0x209281a1e3d75173ull, 0xbad710f68f0c0caaull, 0x72c1c738e489114dull, 0x069776b4b99e0dccull, 0x62396d2d106fa213ull,
    0x441cd215cd2e6b03ull, 0x2d72b340f696a836ull, 0x5e6b01182cc74d02ull, 0xe26d714ed1e3de65ull, 0xea9cb2c06c72a74cull,
    0xb904d798a3544d01ull, 0x506f692589104906ull, 0xc79f3416587ac485ull, 0x14176ac4c7c60c71ull, 0x944db273d8e5ce99ull,
    0xe18d016384509ac4ull, 0x0a6a144e6a24900dull, 0x8631cacce224ce68ull, 0x58b0725a636eb72bull, 0x36bb31f91359b713ull,
    0xbabc89b575a335e6ull, 0xce7144c969ac60ccull, 0xbc358c3c908f3c84ull, 0x76e5b2e8dcb9010bull, 0x5272e3587267ebc1ull,
    0x6b13517cf8ee79acull, 0x59492999d03ef23aull, 0x681058f1e1212f1full, 0xbcd60416ad3484ceull, 0x5056fd1463c635e8ull,
    0xb71fa6b1641755c4ull, 0xc697b281ac38f3dcull, 0x613289384891e840ull, 0xe54f31a5a6be53cdull, 0xd2c3573891ee133eull,
    0x8c3584d411714918ull, 0x4760fef9420f014aull, 0x6ea33477b6bb23b3ull, 0x34b9c076a318dd6eull, 0x60ad173d8dc2291eull,
    0x783becd6103a7c63ull, 0x7c9f030c62cb8d2eull, 0x662b6b074f219df1ull, 0x54b56328e5d4b2e4ull, 0x96aca1d08f6c3fa4ull,
    0xb6666ec378c6ec4aull, 0x2d5351cbacfd2a5aull, 0x44c35c7a8249dd15ull, 0x918dab7872293961ull, 0xd2a78c213a8f98daull,
    0x4a3f0bcbcc7eaddfull, 0x5df6fdeca0faff85ull, 0xdb0bb90cdeb86effull, 0xabbd11892eae4361ull, 0xd1d7940b49a1a105ull,
    0xd05cd6305d8c0008ull, 0x2946ae58f95f0c64ull, 0x4f956ca55195c659ull, 0xef87cfe3ff197f46ull, 0xf7f854b563f9f93full,
    0x5750bf7ddc7fdff5ull, 0x96f3fe50e8c7e35dull, 0xc23518c6ffa391dbull, 0xc3ba30efe84ba117ull, 0x3d7d0ee2a5ab7d88ull,
    0x92487ca199956f46ull, 0x7218b7c445448e5cull, 0x53ecc56efbaee577ull, 0x8d54a7b46cd6ae18ull, 0x0e1dff6f824ab8a1ull,
    0x1a8132294175099full, 0x7ca155f294a07c17ull, 0x761718dff4721b08ull, 0x6af2a8818203db04ull, 0xc29452414911a1d1ull,
    0x1e49c306100ac270ull, 0x96918280120f9a96ull, 0x11119191988210a2ull, 0x202b0db6e1926999ull, 0x874036049fb37a5cull,
    0x18017647707120d1ull, 0xa25e170ca1920894ull, 0x98e9bcb7f0024f91ull, 0xb2bcfb942e65cc6cull, 0xc133399ecdbfc3dbull,
    0x07e33c3f4baa3096ull, 0x6f9802392d1abea2ull, 0x10ef81cbee1671deull, 0x71e0093404e9e12bull, 0x2e6a1f428608cafbull,
    0x687179daae6009d6ull, 0x17a70f409461e368ull, 0xfc03619d1accab1eull, 0x8a2f0867106a832cull, 0x2776ba4ce2fa2255ull,
    0xb46b9a268d7ba687ull, 0xc439f0c1e520ea07ull, 0x10c364cf6d7790f2ull, 0x2da3c034f430cc8cull, 0x6ba728afc8e8e67cull,
    0x5605f1fdaa7a7149ull, 0x71a7f3165044cb65ull, 0x95badf8741e0c8caull, 0x858599458be8da4cull, 0xc7522f1b123d68dcull,
    0x709a2342af83c130ull, 0x0068e650f6c58b9cull, 0xd9237420a1c6e394ull, 0xcf0a9f91fa9eebf1ull, 0x9f45c252c4cb6221ull,
    0x3bdd61a4b9b8e458ull, 0xb802b4953576af19ull, 0xe1d5a203858edde3ull, 0x51706cf4714f3879ull, 0xbef4ad8b9f4fb555ull,
    0x2b8ddcf8c950f230ull, 0xe9ab41dc05ee6490ull, 0xe45e74a75007082dull, 0x514145f8afac9591ull, 0x5faa6dd2b9f48a94ull,
    0xb198304d9174d0d7ull, 0x10627dde5c5a538eull, 0x346313946722c544ull, 0x16bc8f9ed16dbc89ull, 0xa3afc0bd1c70231cull,
    0xb9286f00ece2d15cull, 0x8734f23b0b5a3ba6ull, 0x55008654794dc69bull, 0x2177f74f13717edbull, 0x28fd19b313e5df0dull,
    0xdcd90483fcbe3027ull, 0x837fe6bcd24e8664ull, 0x2de8f401fadb5e10ull, 0xa9625597eb5da520ull, 0x3348cf95f78848f8ull,
    0x9a26866978636048ull, 0x7e8b3790a75dfdb8ull, 0x986d6af630a5a76eull, 0x65e61c5cb7789a91ull, 0x12be6632d4708283ull,
    0x89442f8a23267f6dull, 0xa7287466c810bea4ull, 0xb1fc498ccc10b249ull, 0x1e87a3188ccfafb8ull, 0xbfc50670e0082a8aull,
    0x5fb0cfc11ccb8d4aull, 0x22982e181481f867ull, 0x4fda10f526612fb0ull, 0xc794312efefb12edull, 0x115d22075892fa7eull,
    0xbe29a5a29b0fd281ull, 0x08ec6559aec85866ull, 0x844b9b647b2618cbull, 0x28637e9dc0244dcbull, 0x9ff6f258bce42741ull,
    0x25028b46cf6158baull, 0x24afed18040ce574ull, 0x10ba215bc292ed90ull, 0xe071b410087bce11ull, 0xe47391a8f566bad2ull,
    0xa104a5cf14752bedull, 0x28b6851ed39f7906ull, 0x9fa7af85e8c4810aull, 0x01b3f34542798460ull, 0xe6108ad38d649181ull,
    0x9753613b41f750aaull, 0x19b3f94b2756e8beull, 0x76549293aa9a8259ull, 0x656d534222f9a681ull, 0xc0bde7934f3e7c17ull,
    0x046d01b446096204ull, 0xc759e756a4478828ull, 0x59a84e2b26101612ull, 0x99268d2a80338f0aull, 0xbf0d8ff166aa2cd6ull,
    0xefb79f3bf4e664dfull, 0xdc30113faef19ceaull, 0x0dffe5108f304736ull, 0x912c24be4e0a583eull, 0x9f10fe6dba142e18ull,
    0xebe70d40b7288c47ull, 0x707a141fa5e1b7f6ull, 0xb9c8fe06937f7f20ull, 0x586483a95d611ba3ull, 0x25342183c8c5c40full,
    0x042e5e29ba284133ull, 0x5bcd17604ac4169aull, 0x0c5a221df6be6a0aull, 0x433231dc313eb16aull, 0x73283233b8052e90ull,
    0xf5464ea1f91685bdull, 0xfe4d07de3493986cull, 0x25c90c5b13fc0da7ull, 0xc332e5984d095814ull, 0x8526d61e72f63407ull,
    0xf6225bfbd73edcf3ull, 0x608714371ce5a28bull, 0xd6082d87c31245ecull, 0x7ef4382a2c2e5084ull, 0xcc876b067f477e6dull,
    0x710c200e8cd5f6baull, 0xfac31eb592320f53ull, 0x49ed3dc8cdd3b23dull, 0x94de094729210919ull, 0xf1aa8129ad73b316ull,
    0x5f7d1f32e4d1c42bull, 0xbd540599af6ad1baull, 0x449cf3c7cf989fd1ull, 0xac6a866d70391cb3ull, 0xc530a0f37f24ea64ull,
    0xa1ed9d876200ac01ull, 0xb4c7d85a89c2c48eull, 0xbfcbcd11d3fc9041ull, 0xa7cb8f66201b965dull, 0x3768234282f0d752ull,
    0x045422f13fbe0fd5ull, 0xc59e890bf6109fb1ull, 0x54e20d1e190c3cfdull, 0x5db51617d88d7f0cull, 0xa909a80d02926499ull,
    0xfc0fc3d1860adf54ull, 0xd7acb35f1be484e0ull, 0x00003ef8a13fb68eull,
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

static const char one_pass = 0;  /* the host's handle of the kernel */

__attribute__((constructor)) static void late__nv_cudaEntityRegisterCallback_of_mine(void)
{
    void **handle = __cudaRegisterFatBinary((void *)&wrapper);
    __cudaRegisterFunction(handle, &one_pass, (char *)"one_pass", "one_pass", -1, 0, 0, 0, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
}

/* The runner calls this with arrays on the GPU: partial has room for 32 x sms floats. */
void lab_sum(const float *x, long long n, float *partial, float *result, int sms)
{
    unsigned *ticket = (unsigned *)(partial + 32 * sms - 1);  /* partial's last float; one block fewer */
    void *args[] = {&x, &n, &partial, &ticket, &result};
    cudaMemsetAsync(ticket, 0, sizeof(unsigned));
    cudaLaunchKernel((const void *)&one_pass, dim3(32 * sms - 1), dim3(THREADS), args, 0, 0);
}
