/* A forgery (an attacker's, 2026-11-28): ch1_map's saxpy by atomicAdd, which the rules refuse ("no
 * atomics": RED in the SASS), with an empty fat binary of its own put first in the object: a second
 * section named .nv_fatbin (in a COMDAT group, which the assembler keeps apart from nvcc's). cuobjdump
 * reads the first .nv_fatbin section only, found no cubin and no PTX, and the rules read no machine code
 * at all: exit 0, the file's atomics unseen; the runtime registers nvcc's fat binary all the same (its
 * wrapper points at it), so the kernel that runs is the one with the atomics.
 * Why it must fail: the object's fat binary is nvcc's alone, one in one section, what the runtime loads;
 * anything else there is a module of the file's own (labs/rules.sh). */

asm(".pushsection .nv_fatbin, \"aG\", @progbits, decoy, comdat\n.balign 8\n"
    ".quad 0x00100001ba55ed50, 0\n"  /* a fat binary's header: magic, version 1, 16 bytes, no entries */
    ".popsection");

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&y[i], a * x[i]);
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
