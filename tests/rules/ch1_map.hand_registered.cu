/* Refused: a module registered by the file's own code, whose kernels no rule would read. A constructor
 * named like nvcc's own registration (__sti____cudaRegisterAll..., which a check by name lets through)
 * hands cudart a fatbinary of its own (here a stand-in: the rules refuse it before anything runs) with
 * __cudaRegisterFatBinary, a second time beside nvcc's. */
extern "C" void **__cudaRegisterFatBinary(void *fatCubin);
extern "C" void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);

static const unsigned long long module_of_its_own[4] = {0};
static struct { int magic, version; const void *data; void *unused; } wrapper = {0x466243b1, 1, module_of_its_own, 0};

__attribute__((constructor)) static void __sti____cudaRegisterAll_too(void)
{
    void **handle = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFatBinaryEnd(handle);
}

__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
