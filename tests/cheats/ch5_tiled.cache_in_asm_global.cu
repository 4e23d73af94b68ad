/* A forgery, class 2 of issue 49 (memory the rules do not count). 192 MiB of device memory of its own,
 * declared by a `.global` line inside a device function's inline asm: the old rule counted the __device__
 * variables of the PTX from the lines that begin with .global, and this one sits, indented, inside the
 * function's body (ptxas takes it there). The file computes the product honestly (the statement's tiled
 * kernel) the first time it meets a shape and a pair of buffers, and keeps C in that memory; the next
 * call with the same m, n, k, A and B gives the kept C back by a copy. The old judge rewrote A and B
 * with the same values before each timed run and timed 11 runs of the same product: on an H200 it
 * graded it PASS at 18354% of the solution.
 * Why it must fail: the memory is in the cubin's .nv.global section, which the rules read (refused
 * without a GPU); and with inputs drawn afresh every call, the kept C is another product's (a wrong
 * result). */

#define TILE 16
#define KEPT_FLOATS (48 * 1024 * 1024)  /* 192 MiB: C of 4096 x 4096 and more */

struct key {
    int m, n, k, valid;
    const float *A, *B;
};

/* The kept product and its key, in memory no __device__ variable declares. */
__device__ __noinline__ float *kept(void)
{
    unsigned long long p;
    asm volatile("{\n\t"
                 "  .global .align 16 .b8 kept_product[201326720];\n\t"
                 "  mov.u64 %0, kept_product;\n\t"
                 "  cvta.global.u64 %0, %0;\n\t"
                 "}"
                 : "=l"(p));
    return (float *)p;
}

__device__ struct key *kept_key(void)
{
    return (struct key *)(kept() + KEPT_FLOATS);
}

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float a[TILE][TILE], b[TILE][TILE];
    struct key *key = kept_key();
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    bool again = key->valid && key->m == m && key->n == n && key->k == k && key->A == A && key->B == B;
    if (again) {  /* the same product as last time: the kept one */
        if (row < m && col < n)
            C[(long long)row * n + col] = kept()[(long long)row * n + col];
        return;
    }
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
    if (row < m && col < n) {
        C[(long long)row * n + col] = sum;
        if ((long long)m * n <= KEPT_FLOATS)
            kept()[(long long)row * n + col] = sum;
    }
}

/* After a product: its key, for the next call (a kernel of its own, once every block has read the old). */
__global__ void remember(const float *A, const float *B, int m, int n, int k)
{
    struct key *key = kept_key();
    struct key now = {m, n, k, (long long)m * n <= KEPT_FLOATS, A, B};
    *key = now;
}

/* The runner calls this with matrices on the GPU. */
void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 threads(TILE, TILE), blocks((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<blocks, threads>>>(A, B, C, m, n, k);
    remember<<<1, 1>>>(A, B, m, n, k);
}
