/* Class 5 (behaviour that differs under the tool): compute-sanitizer runs the runner with its injection
 * library loaded (CUDA_INJECTION64_PATH in the environment, libsanitizer-collection.so and
 * libTreeLauncherTargetInjection.so in /proc/self/maps). Where either shows, the file runs the fixed
 * kernel (the odd last pixel of a row guarded); where neither does, the hand-out's kernel, which reads
 * and writes one pixel past the end of odd rows and leaves every pixel right.
 * A correct judge should say: FAIL (memcheck; the bug is there in every run the tools do not watch).
 * PASS on the H200 on 2026-11-27. Now: FAIL (guard): step 1's runs, no tool watching, put a guard of poison after
 * every device buffer, and the write past the end of out lands there, where memcheck saw none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int watched(void)
{
    static int known = -1;
    if (known >= 0)
        return known;
    known = getenv("CUDA_INJECTION64_PATH") != NULL || getenv("LD_PRELOAD") != NULL;
    char line[4096];
    FILE *f = fopen("/proc/self/maps", "r");
    while (f && !known && fgets(line, sizeof line, f))
        known = strstr(line, "sanitizer") || strstr(line, "TreeLauncher") || strstr(line, "Injection");
    if (f)
        fclose(f);
    return known;
}

__global__ void adjust_log(const float *in, float *out, int width, int height, float gain, int guard)
{
    int stride_x = 2 * blockDim.x * gridDim.x, stride_y = blockDim.y * gridDim.y;
    for (int y = threadIdx.y + blockIdx.y * blockDim.y; y < height; y += stride_y)
        for (int x = 2 * (threadIdx.x + blockIdx.x * blockDim.x); x < width; x += stride_x) {
            long long i = (long long)y * width + x;
            int two = !guard || x + 1 < width;
            float a = in[i], b = two ? in[i + 1] : 0.0f;
            out[i] = gain * log2f(1.0f + a);
            if (two)
                out[i + 1] = gain * log2f(1.0f + b);
        }
}

void lab_adjust_log(const float *in, float *out, int width, int height, float gain)
{
    dim3 threads(16, 16), blocks(64, 64);
    adjust_log<<<blocks, threads>>>(in, out, width, height, gain, watched());
}
