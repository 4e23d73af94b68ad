/* ch3_stencil's runner stub: the student's launch function, as labs/ch3_stencil.cu gives it. */
#include "runner.h"

void lab_jacobi_step(const float *in, float *out, int n);

void lab_call(const struct lab_values *v)
{
    lab_jacobi_step((const float *)lab_p(v, 0), (float *)lab_p(v, 1), (int)lab_i(v, 2));
}
