/* ch1_image's harness: checks the student's mirror on pictures of awkward shapes (1 x 1, one row, one
 * column, sides of 31, 33, 1025), then times it on an 8191 x 4097 picture against the copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>

#include "../../common/image.h"
#include "lab.h"
#include LAB_FILE

struct problem { float *in, *out; int width, height; };

static void problem_start(struct problem *p, const float *picture, int width, int height)
{
    size_t bytes = (size_t)width * height * sizeof(float);
    p->width = width, p->height = height;
    p->in = (float *)lab_device_alloc(bytes);
    p->out = (float *)lab_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(p->in, picture, bytes, cudaMemcpyHostToDevice));
}

static void run(void *problem)
{
    struct problem *p = (struct problem *)problem;
    lab_mirror(p->in, p->out, p->width, p->height);
}

static void problem_end(struct problem *p)
{
    CUDA_CHECK(cudaFree(p->in));
    CUDA_CHECK(cudaFree(p->out));
}

int main(int argc, char **argv)
{
    int reps = 21;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch1_image: a picture mirrored, one thread per pixel in a 2D grid", &reps);
    const int shapes[][2] = {{1, 1}, {31, 33}, {33, 31}, {1025, 1}, {1, 1025}, {1025, 7}, {1023, 1025}, {8191, 4097}};
    const int last = COUNT_OF(shapes) - 1;
    long long n_max = (long long)shapes[last][0] * shapes[last][1];
    float *picture = (float *)host_alloc(n_max * sizeof(float)), *got = (float *)host_alloc(n_max * sizeof(float));
    float *want = (float *)host_alloc(n_max * sizeof(float));
    struct problem p;
    for (int k = 0; k < COUNT_OF(shapes); k++) {
        int width = shapes[k][0], height = shapes[k][1];
        long long n = (long long)width * height;
        if (lab_skip(&lab, n))
            continue;
        test_picture(picture, width, height);
        problem_start(&p, picture, width, height);
        run(&p);
        CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(got, p.out, n * sizeof(float), cudaMemcpyDeviceToHost));
        problem_end(&p);
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                want[(long long)y * width + x] = picture[(long long)y * width + width - 1 - x];
        char what[48];
        snprintf(what, sizeof what, "%d x %d picture", width, height);
        if (lab_check_floats(&lab, what, got, want, n, width, 0, "a copy: exact") && got[0] == picture[0] && width > 1)
            lab_hint(&lab, "the first pixel is the input's first: the picture was copied, not mirrored");
    }
    if (lab.failures || lab.small)
        return lab_end(&lab);

    double copy_gbs = measure_copy_bandwidth(COPY_PROBE_BYTES);
    test_picture(picture, shapes[last][0], shapes[last][1]);
    problem_start(&p, picture, shapes[last][0], shapes[last][1]);
    struct stats ms = lab_time(&lab, reps, run, &p, 0);
    lab_report(&lab, ms, 8.0 * n_max, "GB/s", copy_gbs, "of the copy bandwidth", 50);
    problem_end(&p);
    free(picture), free(got), free(want);
    return lab_end(&lab);
}
