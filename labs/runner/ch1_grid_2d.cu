/* ch1_grid_2d's runner stub: the student's launch function, as labs/ch1_grid_2d.cu gives it. */
#include "runner.h"

void lab_add_bias(const float *in, const float *bias, float *out, int width, int height);

void lab_call(const struct lab_values *v)
{
    lab_add_bias((const float *)lab_p(v, 0), (const float *)lab_p(v, 1), (float *)lab_p(v, 2), (int)lab_i(v, 3),
                 (int)lab_i(v, 4));
}
