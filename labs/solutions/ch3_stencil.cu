/* Lab ch3_stencil, a solution: heat.cu's step. Each thread walks ROWS rows down its column with the point
 * above and its own in registers; the left and right neighbours are in L1, where the warp's read of the
 * row put them. Each row crosses from memory about once a step: the step moves what a copy moves.
 *   make lab L=ch3_stencil FILE=labs/solutions/ch3_stencil.cu
 */

#define THREADS 128
#define ROWS 16

/* __restrict__: in and out never overlap, so the compiler may read the next rows before this row's store. */
__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = 1 + blockIdx.y * ROWS;
    if (col < 1 || col > n - 2)
        return;
    int end = row + ROWS < n - 1 ? row + ROWS : n - 1;  /* the last block stops above the bottom edge */
    long long i = (long long)row * n + col;
    float up = in[i - n], mid = in[i];
    for (; row < end; row++, i += n) {
        float down = in[i + n];
        out[i] = 0.25f * ((up + down) + (in[i - 1] + in[i + 1]));
        up = mid;
        mid = down;
    }
}

/* The runner calls this once a step with plates on the GPU; in and out swap between steps. */
void lab_jacobi_step(const float *in, float *out, int n)
{
    dim3 blocks((n + THREADS - 1) / THREADS, (n - 2 + ROWS - 1) / ROWS);
    jacobi_step<<<blocks, THREADS>>>(in, out, n);
}
