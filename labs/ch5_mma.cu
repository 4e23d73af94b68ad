/* Lab ch5_mma: a matrix product on the tensor cores with mma.sync, in TF32 (chapter 5, going further:
 * sgemm_tensor.cu, rung 8).
 *
 * Write the kernel mma_matmul: C = A B, with A m x k, B k x n and C m x n, all row-major floats. Each
 * warp computes one 16 x 8 tile of C on the tensor cores: mma_tf32 below (the PTX instruction
 * mma.sync.m16n8k8) multiplies a 16 x 8 tile of A by an 8 x 8 tile of B and adds the product to the
 * tile's 16 x 8 sums, for the whole warp at once; each of the 32 threads holds a few elements of each
 * operand (its fragment) in registers. Walk along k in steps of 8: load the thread's fragments of A and
 * B (0 outside the matrices), call mma_tf32, and at the end store the thread's sums (inside C only).
 * For the tile whose top-left element is C[r][c] and the step at k0, with g = lane / 4 and q = lane % 4
 * (PTX ISA, "Matrix fragments for mma.m16n8k8"):
 *   a[0] = A[r + g][k0 + q]        a[1] = A[r + g + 8][k0 + q]
 *   a[2] = A[r + g][k0 + q + 4]    a[3] = A[r + g + 8][k0 + q + 4]
 *   b[0] = B[k0 + q][c + g]        b[1] = B[k0 + q + 4][c + g]
 *   sum[0] is C[r + g][c + 2q]      sum[1] is C[r + g][c + 2q + 1]
 *   sum[2] is C[r + g + 8][c + 2q]  sum[3] is C[r + g + 8][c + 2q + 1]
 * a and b hold TF32 numbers, fp32's sign, exponent and top 10 of its 23 mantissa bits, in 32-bit
 * registers: to_tf32 below rounds a float to one. Block (bx, by), of WARPS = 4 warps, computes the
 * 16 x 32 tile of C at row 16 by, column 32 bx; its warp w the 16 x 8 tile at column 32 bx + 8 w (the
 * launch is fixed). Every lane of a warp must take part in each mma_tf32.
 * TF32 tensor cores need compute capability 8.0: the body of your kernel stays inside
 * `#if __CUDA_ARCH__ >= 800`, as in the skeleton, so that the file compiles for every GPU the course
 * builds for (the judge runs this lab only on 8.0 and newer).
 *
 * Contract:
 *   sizes: checked m x n x k = 16 x 8 x 8, 1 x 1 x 1, 17 x 9 x 9, 33 x 31 x 17, 31 x 33 x 64,
 *     64 x 64 x 1025, 1025 x 33 x 7, 7 x 1000 x 129, 257 x 255 x 1000, 4096 x 4096 x 4096 (4,096 elements
 *     sampled); timed 4096^3; on compute capability 8.0 and newer only.
 *   pointers: A, B and C, each its own cudaMalloc of exactly its floats: 256-byte aligned, never offset;
 *     rows are not padded.
 *   zero: m, n and k are at least 1.
 *   values: A and B uniform in [0, 1) (24 random bits), drawn afresh for every call; C arrives filled with
 *     NaN.
 *   index: 32-bit: every matrix is below 2^31 elements (at most 2^24 here).
 *   binding: the Rules line, the fixed launch and mma.sync's fragments; reading them straight from global
 *     memory is the course's solution.
 *
 * Rules: the products and sums are the tensor cores' (mma_tf32): no fp32 arithmetic in your kernel, no
 * wmma (it hides the fragments, which are the lesson), no cuBLAS.
 * The check allows TF32's error: each input keeps 10 mantissa bits, so each product is off by up to
 * 2^-9 of itself.
 * Target: 70% of the course's solution's speed; the limit is cuBLAS's SGEMM in TF32 on the tensor cores,
 * timed on the same GPU. A warp that reads its fragments straight from global memory reaches a small part
 * of it: sgemm_tensor.cu shows what shared memory and larger tiles per warp add.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch5_mma
 */

#define WARPS 4  /* a block's warps, side by side along the columns of C */

/* x rounded to the nearest TF32 (cvt.rna.tf32.f32), in a 32-bit register. */
__device__ unsigned to_tf32(float x)
{
    unsigned t = 0;
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x));
#endif
    return t;
}

/* sum += a b for the warp's 16 x 8 tile, one step of 8 along k: the 32 lanes call it together. */
__device__ void mma_tf32(float (&sum)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(sum[0]), "+f"(sum[1]), "+f"(sum[2]), "+f"(sum[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
#if __CUDA_ARCH__ >= 800
    /* your code here */
#endif
}

/* The runner calls this with matrices on the GPU. */
void lab_mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    dim3 blocks((n + 8 * WARPS - 1) / (8 * WARPS), (m + 15) / 16);
    mma_matmul<<<blocks, 32 * WARPS>>>(A, B, C, m, n, k);
}
