/* naive.cu: the French course page, "Illustration par le produit matriciel": C = A x B with one thread
 * per element of C, on int64 matrices with entries in [-10, 10]. The 2D grid covers C: a thread's
 * column is x = tx + bx * bw and its row y = ty + by * bh (x is the column, the width; y the row, the
 * height: the reverse of the usual (row, column) order). Threads past the edge of C do nothing.
 * The page's kernel adds into C in global memory at every step; the first correction keeps the sum in
 * a register. The page timed its product end to end (copies in and out included): so does this program,
 * beside the kernel alone.
 *   make ch5 && ./ch5_matmul/naive               (the page's 6 x 8 by 8 x 11 demo, then n = 1000 timed)
 *   ./ch5_matmul/naive -n 2500                   (the page's timing size; the CPU loops take a while)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"
#include "../common/cli.h"
#include "../common/device.h"
#include "../common/stats.h"
#include "../common/timer.h"

/* ==== Kernels ==== */

/* A is n x p, B is p x q, C is n x q, all row-major. __launch_bounds__(1024): the timed launch uses
 * blocks of 32 x 32 threads, and on a T4 a block of 1024 threads gets at most 64 registers a thread.
 * The bound makes the compiler keep to it on every GPU, so that no compiler version can turn the launch
 * into "too many resources requested". */

/* The page's kernel as the page wrote it: C[y, x] += A[y, i] * B[i, x]. C must hold zeros first (the
 * page copies np.zeros to the GPU). Every step loads C[y][x] and stores it back: the compiler may not
 * keep it in a register, since for all it knows C is A or B and the store changes the next load. */
__global__ void __launch_bounds__(1024) matmul_naive(const long long *A, const long long *B, long long *C, int n,
                                                     int p, int q)
{
    int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;
    int bw = blockDim.x, bh = blockDim.y;
    int x = tx + bx * bw;  /* column of C */
    int y = ty + by * bh;  /* row of C */
    if (x >= q || y >= n)  /* the grid overhangs C: these threads have no element */
        return;
    for (int i = 0; i < p; i++)
        C[(size_t)y * q + x] += A[(size_t)y * p + i] * B[(size_t)i * q + x];
}

/* The first correction: the sum in a register and one store at the end. The same loads of A and B; C
 * is written once instead of read and written p times, and C needs no zeros first. */
__global__ void __launch_bounds__(1024) matmul_register(const long long *A, const long long *B, long long *C, int n,
                                                        int p, int q)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;  /* column of C */
    int y = threadIdx.y + blockIdx.y * blockDim.y;  /* row of C */
    if (x >= q || y >= n)
        return;
    long long acc = 0;
    for (int i = 0; i < p; i++)
        acc += A[(size_t)y * p + i] * B[(size_t)i * q + x];
    C[(size_t)y * q + x] = acc;
}

/* ==== CPU reference and host helpers ==== */

/* The share of the two CPU products' time done before each loop starts and taken by it, measured on
 * their first rows, so that say_progress can tell how far the long products are. */
static double cpu_before[2], cpu_share[2];

/* The loop order of the definition: for each C[i][j], walk a row of A and a column of B. The column
 * walk jumps q elements at a time, a new cache line for every multiply. */
static void matmul_cpu_ijk(const long long *A, const long long *B, long long *C, int n, int p, int q)
{
    for (int i = 0; i < n; i++) {
        say_progress(cpu_before[1] + cpu_share[1] * i / n);
        for (int j = 0; j < q; j++) {
            long long acc = 0;
            for (int k = 0; k < p; k++)
                acc += A[(size_t)i * p + k] * B[(size_t)k * q + j];
            C[(size_t)i * q + j] = acc;
        }
    }
}

/* The order a C programmer uses: i, k, j. The inner loop walks a row of B and a row of C, both
 * contiguous, so every cache line is used whole and the compiler can vectorise it. */
static void matmul_cpu_ikj(const long long *A, const long long *B, long long *C, int n, int p, int q)
{
    memset(C, 0, (size_t)n * q * sizeof *C);
    for (int i = 0; i < n; i++) {
        say_progress(cpu_before[0] + cpu_share[0] * i / n);
        for (int k = 0; k < p; k++) {
            long long a = A[(size_t)i * p + k];
            for (int j = 0; j < q; j++)
                C[(size_t)i * q + j] += a * B[(size_t)k * q + j];
        }
    }
}

static void random_matrix(long long *M, size_t count, unsigned *seed)
{
    for (size_t i = 0; i < count; i++) {
        *seed = *seed * 1103515245u + 12345u;
        M[i] = (long long)((*seed >> 16) % 21) - 10;  /* the page's bound: -10 .. 10 */
    }
}

static void print_matrix(const long long *M, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        printf("  [");
        for (int c = 0; c < cols; c++)
            printf(" %5lld", M[(size_t)r * cols + c]);
        printf(" ]\n");
    }
}

/* One product on the GPU as the page's cuda_mult does it: allocate and copy A, B and C (zeros) in, run
 * the kernel on blocks of ntx x nty threads and the ceiling-division grid, copy C out, free. Returns the
 * kernel's time by events in *kernel_ms (the caller times the whole call by the wall clock). */
static void gpu_matmul(int use_register, const long long *A, const long long *B, long long *C, int n, int p, int q,
                       int ntx, int nty, double *kernel_ms)
{
    long long *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, (size_t)n * p * sizeof *dA));
    CUDA_CHECK(cudaMalloc(&dB, (size_t)p * q * sizeof *dB));
    CUDA_CHECK(cudaMalloc(&dC, (size_t)n * q * sizeof *dC));
    CUDA_CHECK(cudaMemcpy(dA, A, (size_t)n * p * sizeof *A, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, (size_t)p * q * sizeof *B, cudaMemcpyHostToDevice));
    if (use_register)  /* poison: every element must be written */
        CUDA_CHECK(cudaMemset(dC, 0xff, (size_t)n * q * sizeof *dC));
    else  /* the page's kernel adds into C: it starts from zeros, copied in as the page does */
        CUDA_CHECK(cudaMemcpy(dC, C, (size_t)n * q * sizeof *C, cudaMemcpyHostToDevice));
    dim3 threads(ntx, nty), blocks((unsigned)ceil_div(q, ntx), (unsigned)ceil_div(n, nty));  /* may overhang C */
    struct gpu_timer timer;
    gpu_timer_create(&timer);
    gpu_timer_start(&timer, 0);
    if (use_register)
        matmul_register<<<blocks, threads>>>(dA, dB, dC, n, p, q);
    else
        matmul_naive<<<blocks, threads>>>(dA, dB, dC, n, p, q);
    CHECK_LAUNCH();
    *kernel_ms = gpu_timer_stop(&timer);
    gpu_timer_destroy(&timer);
    CUDA_CHECK(cudaMemcpy(C, dC, (size_t)n * q * sizeof *C, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
}

/* ==== main ==== */

int main(int argc, char **argv)
{
    long long size = 1000;
    int reps = 3;
    const char *results_path = NULL;
    struct cli_option options[] = {
        {"-n", CLI_SIZE, &size, 1, 4000, "side of the matrices timed after the demo (default 1000; the page: 2500)"},
        {"-r", CLI_INT, &reps, 1, 1000, "timed GPU runs (default 3)"},
        cli_results_option(&results_path),
    };
    int device = cli_parse(argc, argv, "French page: a naive int64 matrix product, one thread per element.", options,
                           COUNT_OF(options));
    results_to(results_path);
    struct device_info dev;
    device_start(device, &dev);
    unsigned seed = 2020;
    int failures = 0;
    double ms;

    /* The demo: A is 6 x 8, B is 8 x 11, blocks of 2 x 4 threads. */
    {
        enum { N = 6, P = 8, Q = 11 };
        long long A[N * P], B[P * Q], C[N * Q] = {0}, want[N * Q];
        random_matrix(A, N * P, &seed);
        random_matrix(B, P * Q, &seed);
        gpu_matmul(0, A, B, C, N, P, Q, 2, 4, &ms);
        matmul_cpu_ijk(A, B, want, N, P, Q);
        printf("\nC = A x B for A 6 x 8, B 8 x 11, blocks of 2 x 4 threads: a grid of %lld x %lld blocks\n",
               ceil_div(Q, 2), ceil_div(N, 4));
        printf("from the GPU:\n");
        print_matrix(C, N, Q);
        printf("from the CPU:\n");
        print_matrix(want, N, Q);
        failures += check(!memcmp(C, want, sizeof C), "demo: the GPU's %d elements equal the CPU's", N * Q);
    }

    /* Grid sizing: the page's formula q // ntx + (q % ntx) against the ceiling division. */
    printf("\nblocks needed to cover q columns with blocks ntx wide:\n");
    printf("  %6s %4s %22s %22s\n", "q", "ntx", "page: q//ntx + q%ntx", "(q + ntx - 1) / ntx");
    int cases[][2] = {{11, 2}, {6, 4}, {100, 32}, {2500, 32}, {10000, 32}, {10112, 32}};
    for (int c = 0; c < COUNT_OF(cases); c++) {
        int q = cases[c][0], ntx = cases[c][1], page = q / ntx + q % ntx, ceiling = (int)ceil_div(q, ntx);
        printf("  %6d %4d %22d %22d  %s\n", q, ntx, page, ceiling,
               page == ceiling ? "" : "<- too many blocks: idle, but launched");
    }
    printf("  The page's formula adds the remainder r = q %% ntx where 1 is meant: it is right only when r is 0\n"
           "  or 1. It never gives too few blocks (if r > 0 it adds at least 1), so with the bounds check the\n"
           "  result is still right; the extra blocks only cost launch time.\n");

    /* Timing at n x n: the page's kernel and the register sum, each alone and end to end, then the two
     * CPU loop orders. Three n x n int64 matrices on the GPU; on the host the same and the CPU's answer. */
    int n = (int)size_to_fit(&dev, "-n", size, 2, 3 * sizeof(long long), 4 * sizeof(long long), 0);
    size_t count = (size_t)n * n;
    long long *A = (long long *)host_alloc(count * sizeof *A), *B = (long long *)host_alloc(count * sizeof *B);
    long long *C = (long long *)host_alloc(count * sizeof *C), *want = (long long *)host_alloc(count * sizeof *want);
    /* Two versions x reps runs: the kernel's time and the whole call's. */
    double *gpu_ms = (double *)host_alloc(2 * reps * sizeof(double));
    double *whole = (double *)host_alloc(2 * reps * sizeof(double));
    random_matrix(A, count, &seed);
    random_matrix(B, count, &seed);
    /* The CPU computes the whole product twice, n^3 multiply-adds each (the reason -n stops at 4000):
     * both loops timed on their first 8 rows first say how long that will take. Rows at the full width,
     * not a small corner: a 256 x 256 B fits in the cache, and the i-j-k loop's column walk then ran
     * 3x faster than it does at n = 2500 (an H200's host). */
    double t0 = wall_seconds();
    if (n > 256) {
        enum { ROWS = 8 };
        matmul_cpu_ikj(A, B, want, ROWS, n, n);
        double ikj = wall_seconds() - t0;
        matmul_cpu_ijk(A, B, want, ROWS, n, n);
        double both = wall_seconds() - t0;
        cpu_share[0] = cpu_before[1] = ikj / both;
        cpu_share[1] = 1.0 - ikj / both;
        say_how_long("the two CPU products", both * n / ROWS, "-n 1000");
    }
    t0 = wall_seconds();
    matmul_cpu_ikj(A, B, want, n, n, n);
    double cpu_ikj = wall_seconds() - t0;
    for (int v = 0; v < 2; v++) {
        /* The whole call by the wall clock, as the page timed it, and the kernel alone by its events. The
         * page's kernel adds into C: zeros before every run, outside its clock (the page's
         * C = np.zeros((n, q))). The warm-up is the loop's (the demo already loaded the page's kernel). */
        if (v == 0)
            memset(C, 0, count * sizeof *C);
        struct timed_runs runs = timed_runs_wall(whole + v * reps, reps);
        while (timed_run(&runs)) {
            gpu_matmul(v, A, B, C, n, n, n, 32, 32, &ms);
            timed_run_end(&runs);
            if (runs.run >= 0)
                gpu_ms[v * reps + runs.run] = ms;
            if (v == 0 && runs.run < reps - 1)
                memset(C, 0, count * sizeof *C);
        }
        failures += check(!memcmp(C, want, count * sizeof *C), "n = %d, %s: the GPU product equals the CPU's exactly",
                          n, v ? "sum in a register" : "the page's kernel");  /* the last run's product */
    }
    t0 = wall_seconds();
    matmul_cpu_ijk(A, B, want, n, n, n);
    double cpu_ijk = wall_seconds() - t0;
    failures += check(!memcmp(C, want, count * sizeof *C), "n = %d: and the CPU's i-j-k loop agrees", n);

    double mults = (double)n * n * n;  /* multiply-adds */
    printf("\nn = %d, blocks of 32 x 32 threads, int64 (%.2g multiply-adds), median of %d:\n", n, mults, reps);
    const char *names[2] = {"the page's kernel, adds into C", "sum in a register"},
               *keys[2] = {"naive", "register_sum"};
    struct stats kernel[2], end_to_end[2];
    for (int v = 0; v < 2; v++) {
        kernel[v] = stats_of(gpu_ms + v * reps, reps);
        print_time(keys[v], names[v], kernel[v]);
        printf("  %7.1f G multiply-adds/s\n", mults / (kernel[v].median * 1e-3) / 1e9);
    }
    printf("end to end, as the page timed it (allocate, copy A, B and C in, kernel, copy C out; wall clock):\n");
    for (int v = 0; v < 2; v++) {
        end_to_end[v] = stats_of(whole + v * reps, reps);
        print_time(v ? "register_sum_end_to_end" : "naive_end_to_end",
                   v ? "sum in a register, end to end" : "the page's kernel, end to end", end_to_end[v]);
        printf("  (the kernel is %.0f%% of it)\n", 100.0 * kernel[v].median / end_to_end[v].median);
    }
    printf("CPU, one core, the same int64 product:\n");
    printf("  %-28s %8.2f s   %7.2f G multiply-adds/s  (%.0fx the page's kernel end to end)\n",
           "CPU, i-j-k (definition)", cpu_ijk, mults / cpu_ijk / 1e9, cpu_ijk / (end_to_end[0].median * 1e-3));
    printf("  %-28s %8.2f s   %7.2f G multiply-adds/s  (%.0fx the page's kernel end to end)\n",
           "CPU, i-k-j (rows of B)", cpu_ikj, mults / cpu_ikj / 1e9, cpu_ikj / (end_to_end[0].median * 1e-3));
    record_value("cpu_ijk", "CPU, i-j-k (definition)", cpu_ijk * 1e3, "ms");
    record_value("cpu_ikj", "CPU, i-k-j (rows of B)", cpu_ikj * 1e3, "ms");
    printf("\nthe register sum / the page's kernel: %.2f of the time (the first correction).\n",
           kernel[1].median / kernel[0].median);
    /* The page, n = 2500 on a GTX 970: "Cuda: 0.63s" (its cuda_mult: copies in, kernel, copy out; being
     * the process's first CUDA calls, also the context's creation, which device_start made here before any
     * timing), "Numpy: 27.47s" (NumPy's int64 product, no BLAS behind it), a C++ program about 9 s. */
    print_article("French page, n = 2500 on a GTX 970: its kernel 0.63 s end to end; NumPy's int64 product 27.47 s "
                  "(%.0fx, \"about 40\"), a C++ loop about 9 s (%.0fx, \"only 15\")", 27.47 / 0.63, 9.0 / 0.63);
    printf("here, n = %d: the i-k-j loop takes %.0fx the page's kernel end to end, %.0fx its kernel alone.%s\n", n,
           cpu_ikj / (end_to_end[0].median * 1e-3), cpu_ikj / (kernel[0].median * 1e-3),
           n == 2500 ? "" : " (-n 2500 is the page's size.)");

    free(A);
    free(B);
    free(C);
    free(want);
    free(gpu_ms);
    free(whole);
    return exit_status(failures);
}
