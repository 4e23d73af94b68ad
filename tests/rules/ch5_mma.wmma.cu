/* Refused: ch5_mma's rule, no wmma: the C++ API of the tensor cores (nvcuda::wmma, mma.h), which hides
 * the fragments' layout. Its HMMA is what mma.sync compiles to as well, so its header is what the rule
 * reads. */
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void mma_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ half a_tile[16 * 16], b_tile[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    int row = blockIdx.y * 16, col = blockIdx.x * 16;
    wmma::fill_fragment(c, 0.0f);
    for (int i = 0; i < k; i += 16) {
        for (int e = threadIdx.x; e < 16 * 16; e += 32) {
            a_tile[e] = __float2half(A[(row + e / 16) * k + i + e % 16]);
            b_tile[e] = __float2half(B[(i + e / 16) * n + col + e % 16]);
        }
        __syncwarp();
        wmma::load_matrix_sync(a, a_tile, 16);
        wmma::load_matrix_sync(b, b_tile, 16);
        wmma::mma_sync(c, a, b, c);
        __syncwarp();
    }
    wmma::store_matrix_sync(C + row * n + col, c, n, wmma::mem_row_major);
}
