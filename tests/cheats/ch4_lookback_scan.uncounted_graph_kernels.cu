/* Attack: kernels the runner never counts. labs/runner/launches.c wraps the launch functions nvcc's code
 * and the runtime's launch API go through (Makefile LAB_LAUNCHES: __cudaLaunchKernel, cudaLaunchKernel,
 * cudaLaunchCooperativeKernel, cudaLaunchKernelExC and their _ptsz forms), but a kernel node added to a
 * graph by hand (cudaGraphAddKernelNode) and run by cudaGraphLaunch goes through none of them; nor does
 * rules.txt refuse any cudaGraph* name (ch3_graph needs them). This file is
 * tests/cheats/ch4_lookback_scan.three_kernels.cu with its first two passes (the tiles' sums, then one
 * block's scan of them) as the two kernel nodes of a graph, and the third pass an ordinary launch: the
 * runner counts 1, the judge's one_kernel (labs/judge/ch4_lookback_scan.cu ~line 68) is satisfied, and
 * the scan is reduce-then-scan, no look-back. Stream capture would not do (the wrappers run, and count,
 * while capturing); nodes added by hand do. The executable graph is kept between calls (host memory of
 * its own, which the README allows) and its nodes' arguments updated each call.
 * Expected on a GPU: PASS (three_kernels reached 84% of the solution on an H200; a graph launch of two
 * nodes costs about what two launches cost). */

#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)

/* The block's exclusive scan of one int a thread (any whole number of warps); *total: the block's sum. */
__device__ int block_exclusive(int mine, int *total)
{
    __shared__ int warps[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, x = mine;
    for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    if (lane == 31)
        warps[warp] = x;
    __syncthreads();
    int before = 0, all = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) {
        before += w < warp ? warps[w] : 0;
        all += warps[w];
    }
    __syncthreads();
    *total = all;
    return before + x - mine;
}

/* Kernel 1: status[t] = tile t's sum. */
__global__ void tile_sums(const int *in, long long n, unsigned long long *status)
{
    long long first = blockIdx.x * (long long)TILE;
    int sum = 0, total;
    for (int j = 0; j < ITEMS; j++) {
        long long i = first + threadIdx.x + (long long)j * THREADS;
        sum += i < n ? in[i] : 0;
    }
    block_exclusive(sum, &total);
    if (threadIdx.x == 0)
        status[blockIdx.x] = (unsigned)total;
}

/* Kernel 2, one block of 1024 threads, each a stretch of tiles: status[t] = the sum of the tiles before t. */
__global__ void scan_sums(unsigned long long *status, long long tiles)
{
    long long each = (tiles + blockDim.x - 1) / blockDim.x, from = threadIdx.x * each;
    long long to = from + each < tiles ? from + each : tiles;
    int sum = 0, total;
    for (long long t = from; t < to; t++)
        sum += (int)status[t];
    int before = block_exclusive(sum, &total);
    for (long long t = from; t < to; t++) {
        int here = (int)status[t];
        status[t] = (unsigned)before;
        before += here;
    }
}

/* Kernel 3: each tile, scanned, plus its prefix. */
__global__ void scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long first = blockIdx.x * (long long)TILE, mine = first + (long long)threadIdx.x * ITEMS;
    bool whole = first + TILE <= n;
    int v[ITEMS], sum = 0, total;
    for (int q = 0; q < ITEMS / 4; q++) {
        int4 w = whole ? ((const int4 *)(in + mine))[q] : make_int4(0, 0, 0, 0);
        v[4 * q] = w.x, v[4 * q + 1] = w.y, v[4 * q + 2] = w.z, v[4 * q + 3] = w.w;
    }
    for (int j = 0; j < ITEMS && !whole; j++)
        v[j] = mine + j < n ? in[mine + j] : 0;
    for (int j = 0; j < ITEMS; j++)
        sum += v[j];
    int prefix = block_exclusive(sum, &total) + (int)status[blockIdx.x];
    for (int j = 0; j < ITEMS; j++)
        v[j] = prefix += v[j];
    for (int q = 0; q < ITEMS / 4 && whole; q++)
        ((int4 *)(out + mine))[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    for (int j = 0; j < ITEMS && !whole; j++)
        if (mine + j < n)
            out[mine + j] = v[j];
}

static cudaGraph_t graph;
static cudaGraphExec_t exec;
static cudaGraphNode_t node_sums, node_scan;

/* The runner calls this with arrays on the GPU: status has (n + TILE - 1) / TILE words. */
void lab_scan(const int *in, int *out, long long n, unsigned long long *status, unsigned *counter)
{
    long long tiles = (n + TILE - 1) / TILE;
    void *sums_args[] = {(void *)&in, (void *)&n, (void *)&status};
    void *scan_args[] = {(void *)&status, (void *)&tiles};
    cudaKernelNodeParams sums = {};
    sums.func = (void *)tile_sums;
    sums.gridDim = dim3((unsigned)tiles);
    sums.blockDim = dim3(THREADS);
    sums.kernelParams = sums_args;
    cudaKernelNodeParams scans = {};
    scans.func = (void *)scan_sums;
    scans.gridDim = dim3(1);
    scans.blockDim = dim3(1024);
    scans.kernelParams = scan_args;
    if (!exec) {
        cudaGraphCreate(&graph, 0);
        cudaGraphAddKernelNode(&node_sums, graph, NULL, 0, &sums);
        cudaGraphAddKernelNode(&node_scan, graph, &node_sums, 1, &scans);
        cudaGraphInstantiate(&exec, graph, 0);
    } else {
        cudaGraphExecKernelNodeSetParams(exec, node_sums, &sums);
        cudaGraphExecKernelNodeSetParams(exec, node_scan, &scans);
    }
    cudaGraphLaunch(exec, 0);                                   /* two kernels, not counted */
    scan<<<(unsigned)tiles, THREADS>>>(in, out, n, status, counter);  /* one kernel, counted */
}
