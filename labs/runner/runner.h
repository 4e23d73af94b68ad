/* runner.h: what a lab's runner stub sees (labs/runner/LAB.cu). The stub declares the student's launch
 * function as the statement gives it and calls it with the judge's arguments, by position:
 *   void lab_saxpy(float a, const float *x, float *y, long long n, int sms);
 *   void lab_call(const struct lab_values *v)
 *   {
 *       lab_saxpy(lab_f(v, 0), (const float *)lab_p(v, 1), (float *)lab_p(v, 2), lab_i(v, 3), lab_i(v, 4));
 *   }
 * Buffers arrive as pointers the runner made (device or pinned host memory, to their exact size) or
 * mapped from the judge's; numbers as long long or double. A stub that asks for an argument of another
 * kind than the judge sent is the course's bug, not the student's: the runner stops and says so. */
#ifndef LABS_RUNNER_H
#define LABS_RUNNER_H
#include "../judge/protocol.h"
#ifdef __cplusplus
extern "C" {
#endif

struct lab_values {
    int count;
    int kind[LAB_MAX_ARGS];
    long long i[LAB_MAX_ARGS];
    double f[LAB_MAX_ARGS];
    void *p[LAB_MAX_ARGS];
};

void lab_call(const struct lab_values *v);                       /* the stub, one per lab */
/* A lab run by several MPI ranks defines these too (runner.c has one-process defaults): */
int lab_ranks_start(int *argc, char ***argv);  /* MPI_Init and the rank's GPU; returns the rank */
void lab_ranks_serve(void);                    /* ranks other than 0: take part in each call, until the end */
void lab_ranks_end(void);                      /* rank 0, at the judge's QUIT: tell the others, MPI_Finalize */
void lab_wrong_argument(const struct lab_values *v, int a, int kind);  /* never returns */

static inline long long lab_i(const struct lab_values *v, int a)
{
    if (a >= v->count || v->kind[a] != LAB_INT)
        lab_wrong_argument(v, a, LAB_INT);
    return v->i[a];
}
static inline double lab_f(const struct lab_values *v, int a)
{
    if (a >= v->count || v->kind[a] != LAB_FLOAT)
        lab_wrong_argument(v, a, LAB_FLOAT);
    return v->f[a];
}
static inline void *lab_p(const struct lab_values *v, int a)
{
    if (a >= v->count || (v->kind[a] != LAB_DEVICE && v->kind[a] != LAB_HOST))
        lab_wrong_argument(v, a, LAB_DEVICE);
    return v->p[a];
}

#ifdef __cplusplus
}
#endif
#endif
