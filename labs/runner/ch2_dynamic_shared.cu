/* ch2_dynamic_shared's runner stub: the student's launch function, as labs/ch2_dynamic_shared.cu gives it. */
#include "runner.h"

void lab_rotate_tiles(float *data, int n, int tile, int shift);

void lab_call(const struct lab_values *v)
{
    lab_rotate_tiles((float *)lab_p(v, 0), (int)lab_i(v, 1), (int)lab_i(v, 2), (int)lab_i(v, 3));
}
