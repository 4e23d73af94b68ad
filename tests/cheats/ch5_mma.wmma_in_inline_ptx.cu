/* A forgery (ch5_mma's "no wmma" is a header rule, /mma\.h$): the wmma API's PTX written by hand. The
 * fragments' layout, the lab's lesson, is left to wmma.load and wmma.store (m16n16k8, TF32) in inline asm:
 * mma.h is never included, and the machine code (HMMA, LDS) is what mma.sync's would be. Two warps of the
 * block each compute a 16 x 16 tile through shared memory, zero-padded at the edges; the other two load.
 * Why it must fail: "no wmma (it hides the fragments, which are the lesson)" (the statement); no rule of
 * the machine code tells wmma from mma.sync, so only the PTX (the wmma. instructions) can refuse it. */

#define WARPS 4  /* a block's warps, side by side along the columns of C */

__device__ unsigned to_tf32(float x)
{
    unsigned t = 0;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x));
#endif
    return t;
}

__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
#if __CUDA_ARCH__ >= 800
    __shared__ __align__(128) unsigned As[16 * 8], Bs[8 * 32];
    __shared__ __align__(128) float Cs[16 * 32];
    int t = threadIdx.x, w = t / 32, row = 16 * blockIdx.y, col = 32 * blockIdx.x;
    unsigned a0, a1, a2, a3, b0, b1, b2, b3;
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
    for (int k0 = 0; k0 < k; k0 += 8) {
        int r = t / 8, c = t % 8;
        As[t] = row + r < m && k0 + c < k ? to_tf32(A[(long long)(row + r) * k + k0 + c]) : 0u;
        for (int e = t; e < 8 * 32; e += 32 * WARPS) {
            int kr = e / 32, cc = e % 32;
            Bs[e] = k0 + kr < k && col + cc < n ? to_tf32(B[(long long)(k0 + kr) * n + col + cc]) : 0u;
        }
        __syncthreads();
        if (w < 2) {
            asm volatile("wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%0,%1,%2,%3}, [%4], 8;"
                         : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "l"(As));
            asm volatile("wmma.load.b.sync.aligned.row.m16n16k8.tf32 {%0,%1,%2,%3}, [%4], 32;"
                         : "=r"(b0), "=r"(b1), "=r"(b2), "=r"(b3) : "l"(Bs + 16 * w));
            asm volatile("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, "
                         "{%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3,%4,%5,%6,%7};"
                         : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3), "+f"(d4), "+f"(d5), "+f"(d6), "+f"(d7)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
        }
        __syncthreads();
    }
    if (w < 2)
        asm volatile("wmma.store.d.sync.aligned.row.m16n16k8.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, 32;"
                     ::"l"(Cs + 16 * w), "f"(d0), "f"(d1), "f"(d2), "f"(d3), "f"(d4), "f"(d5), "f"(d6), "f"(d7)
                     : "memory");
    __syncthreads();
    for (int e = t; e < 16 * 32; e += 32 * WARPS) {
        int r = e / 32, c = e % 32;
        if (row + r < m && col + c < n)
            C[(long long)(row + r) * n + col + c] = Cs[e];
    }
#endif
}

/* The runner calls this with matrices on the GPU. */
void lab_mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 blocks((n + 8 * WARPS - 1) / (8 * WARPS), (m + 15) / 16);
    mma_matmul<<<blocks, 32 * WARPS>>>(A, B, C, m, n, k);
}
