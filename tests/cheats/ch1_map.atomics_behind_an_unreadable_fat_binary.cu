/* A forgery (an attacker's, 2026-11-28): ch1_map's saxpy by atomicAdd, which the rules refuse ("no
 * atomics"), with 16 bytes of its own after nvcc's fat binary in the object's .nv_fatbin section: a
 * header that is no fat binary's. cuobjdump stops on it ("Invalid fatbin header"), labs/rules.sh cannot
 * read the machine code, and the grade was exit 2, "the lab's rules could not be checked", the course's
 * failure: not graded, where the file breaks a rule. The runtime loads nvcc's fat binary all the same.
 * Why it must fail: the object's fat binary is nvcc's alone, one in one section, what the runtime loads;
 * bytes beside it are the file's own (labs/rules.sh), refused before cuobjdump reads them. */

__attribute__((section(".nv_fatbin"), used, aligned(8)))
static const unsigned long long unreadable[2] = {0x00100001ba55ed50ull, 0xffffffffffffff00ull};

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
