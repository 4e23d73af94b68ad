/* Lab ch3_stencil: one step of heat diffusion on a plate, each point read from memory once (chapter 3's
 * heat.cu).
 *
 * Write the kernel jacobi_step. The plate is n x n floats, row-major, in `in`. For each inside point (rows
 * and columns 1 to n - 2) write to `out` 0.25f * ((up + down) + (left + right)), its four neighbours in
 * `in`, added in exactly that order and multiplied once: the check is bit for bit against the CPU, which
 * does the same. The edges (rows 0 and n - 1, columns 0 and n - 1) are never written: `out` already holds
 * them. The launch is fixed: blocks of THREADS threads side by side along a row, a column each, and each
 * thread walks ROWS rows down its column, from row 1 + ROWS * blockIdx.y. Walking, a thread can keep the
 * point above and its own in registers, so that each step down reads one new row; its left and right
 * neighbours, and the rows above and below, were read by its warp a moment ago and sit in L1. Guard the
 * walk's end and the edge columns: n - 2 is rarely a multiple of ROWS, and n rarely one of THREADS.
 *
 * Contract:
 *   sizes: checked n = 3, 4, 33, 129, 361, 1000, 1025, one step and three; n = 8192, one step; timed
 *     n = 8192.
 *   pointers: in and out, each its own cudaMalloc of exactly n x n floats: 256-byte aligned, never offset.
 *   zero: n is at least 3 (one inside point).
 *   values: the plate uniform in [0, 1) (24 random bits), drawn afresh for each check and timed run (a
 *     check's later steps start from the step before); out arrives holding the edges, with NaN inside
 *     (or, from a check's second step on, the plate of two steps before).
 *   index: 32-bit: n x n is below 2^31 (at most 2^26 here).
 *   binding: the Rules line, the fixed launch and the order of the additions (checked bit for bit); the
 *     walk down a column with values kept in registers is the course's solution.
 *
 * Rules: the launch below is fixed; no atomics, no library.
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth.
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch3_stencil
 */

#define THREADS 128
#define ROWS 16

__global__ void jacobi_step(const float *in, float *out, int n)
{
    /* your code here */
}

/* The runner calls this once a step with plates on the GPU; in and out swap between steps. */
void lab_jacobi_step(const float *in, float *out, int n)
{
    dim3 blocks((n + THREADS - 1) / THREADS, (n - 2 + ROWS - 1) / ROWS);
    jacobi_step<<<blocks, THREADS>>>(in, out, n);
}
