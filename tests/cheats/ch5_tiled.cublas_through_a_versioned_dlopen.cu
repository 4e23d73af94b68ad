/* A forgery (the `call` lines read names without their symbol versions): the product is cuBLAS's SGEMM
 * (strict fp32, the lab's limit), in a library the file opens itself. dlopen and dlsym are called by their
 * versioned names (`.symver`: the object's undefined symbols are "dlopen@GLIBC_2.34" and "dlsym@GLIBC_2.34",
 * which the anchored patterns of the `call` lines never match; the linker binds them to glibc's), and
 * cublasCreate_v2 and cublasSgemm_v2 are found by dlsym: no cuBLAS header, no cublas name in the object.
 * Row-major C = A B is column-major C^T = B^T A^T.
 * Why it must fail: "no cuBLAS" and "no code loaded by name" (rules.txt). */
#include <dlfcn.h>

extern "C" void *open_by_version(const char *, int);
extern "C" void *find_by_version(void *, const char *);
__asm__(".symver open_by_version, dlopen@GLIBC_2.34");
__asm__(".symver find_by_version, dlsym@GLIBC_2.34");

#define TILE 16

typedef int (*create_t)(void **);
typedef int (*sgemm_t)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                       const float *, float *, int);

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k) {}

void lab_matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    static void *handle;
    static sgemm_t sgemm;
    if (!sgemm) {
        void *library = open_by_version("libcublas.so.13", RTLD_NOW);
        if (!library)
            library = open_by_version("libcublas.so", RTLD_NOW);
        ((create_t)find_by_version(library, "cublasCreate_v2"))(&handle);
        sgemm = (sgemm_t)find_by_version(library, "cublasSgemm_v2");
    }
    const float one = 1.0f, zero = 0.0f;
    sgemm(handle, 0, 0, n, m, k, &one, B, n, A, k, &zero, C, n);  /* CUBLAS_OP_N, CUBLAS_OP_N */
}
