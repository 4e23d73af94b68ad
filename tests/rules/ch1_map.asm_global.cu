/* Refused: memory of its own on the GPU that no __device__ variable shows: a 1 MiB .global array
 * declared inside the kernel's inline asm (the PTX has it, where a search for __device__ does not look;
 * the cubin's .nv.global section counts it). */
__global__ void saxpy(float a, const float *x, float *y, long long n)
{
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = a * x[i] + y[i];
        asm volatile("{\n\t.global .align 4 .b8 kept[1048576];\n\t.reg .u64 at;\n\tmov.u64 at, kept;\n\t"
                     "st.global.f32 [at], %0;\n\t}" ::"f"(v) : "memory");
        y[i] = v;
    }
}

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    saxpy<<<32 * sms, 256>>>(a, x, y, n);
}
