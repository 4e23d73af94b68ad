/* A cheat: the course's solution, included by its path from the folder labs/grade compiles in
 * (output/labs/build/.LAB.XXXXXX/). The compiler's sandbox shows no course file, so it does not compile;
 * without a sandbox, the rules take headers from the CUDA Toolkit and the system only. */
#include "../../../../labs/solutions/ch1_map.cu"
