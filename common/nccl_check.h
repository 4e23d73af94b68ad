/* nccl_check.h: check an NCCL call as CUDA_CHECK checks a CUDA call. Header only, for the programs that
 * link NCCL (as cublas_check.h is for cuBLAS): the .c files of common/ do not, so no other program needs it.
 *   NCCL_CHECK(ncclAllReduce(...));   on error: file:line, the call, NCCL's reason; exit 1 */
#ifndef COMMON_NCCL_CHECK_H
#define COMMON_NCCL_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#include <nccl.h>

static inline void nccl_check(ncclResult_t result, const char *call, const char *file, int line)
{
    if (result == ncclSuccess)
        return;
    /* ncclGetLastError often says more (which peer, which resource); NCCL_DEBUG=WARN prints it all. */
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, ncclGetErrorString(result),
            ncclGetLastError(NULL));
    exit(1);
}

#define NCCL_CHECK(call) nccl_check((call), #call, __FILE__, __LINE__)

#endif
