/* Refused: code loaded by name or from bytes, which no rule would read: the driver's module loader, the
 * runtime's library loader (CUDA 12), an entry point fetched by its name, and the dynamic loader. */
#include <cuda.h>
#include <dlfcn.h>

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

void lab_saxpy(float a, const float *x, float *y, long long n, int sms)
{
    CUmodule module;
    cuModuleLoadData(&module, ptx);
    cudaLibrary_t library;
    cudaLibraryLoadData(&library, ptx, 0, 0, 0, 0, 0, 0);
    void *entry;
    cudaGetDriverEntryPoint("cuModuleLoadData", &entry, cudaEnableDefault, 0);
    void *loader = dlsym(RTLD_DEFAULT, "cuModuleLoadData");
    (void)loader;
}
