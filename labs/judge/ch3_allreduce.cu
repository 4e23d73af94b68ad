/* ch3_allreduce's judge: the student's all-reduce over every GPU this machine shows (one GPU: one rank),
 * at sizes from one element to a few million per GPU. Each size's arrays come from a seed of its own
 * (lab_fresh), each GPU's from its own stream of it, in [0.5, 1.5); every element of every GPU's result is
 * checked against the sum made here in double, and every GPU's stream must have finished when the function
 * returned (the runner's stub says which had). Judged on the results alone: with one GPU there is nothing
 * to time against. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { MAX_GPUS = 16 };  /* the runner's stub makes communicators for at most this many */
/* The arrays' values: positive, for the tolerance below (the statement names no range). */
#define VALUE_LOW 0.5f
#define VALUE_HIGH 1.5f

/* Whether all n elements of `got` hold the poison the runner filled recv with (0xff bytes). */
static long long poisoned(const float *got, long long n)
{
    long long count = 0;
    for (long long i = 0; i < n; i++) {
        unsigned bits;
        memcpy(&bits, &got[i], sizeof bits);
        count += bits == 0xffffffffu;
    }
    return count;
}

/* After a wrong result on GPU g: the signatures of the usual mistakes. */
static void hint_allreduce(struct lab *lab, const float *got, const float *in, long long n, int gpus)
{
    long long poison = poisoned(got, n), first_poison = n;
    for (long long i = 0; i < n; i++)
        if (isnan(got[i])) {
            first_poison = i;
            break;
        }
    if (poison == n) {
        lab_hint(lab, "recv still holds the poison it was filled with: nothing was written into it. ncclAllReduce "
                      "reads its first buffer and writes its second (sendbuff, recvbuff), and the group runs "
                      "only at ncclGroupEnd()");
        return;
    }
    if (poison > 0 && poison == n - first_poison) {
        lab_hint(lab, "the first %lld of %lld elements are right and the rest still hold the poison: NCCL's count "
                      "is in elements of the type named (n of ncclFloat), not in bytes, not per GPU", first_poison, n);
        return;
    }
    int max = gpus > 1;
    for (long long i = 0; i < n && max; i++) {
        float biggest = in[i];
        for (int g = 1; g < gpus; g++)
            biggest = fmaxf(biggest, in[(long long)g * n + i]);
        max = got[i] == biggest;
    }
    if (max)
        lab_hint(lab, "every element is the largest of the GPUs' values, not their sum: the operation is ncclSum");
}

int main(int argc, char **argv)
{
    int reps = 1;
    struct lab lab;
    lab_start(&lab, argc, argv, "Lab ch3_allreduce: a sum over every GPU with NCCL's all-reduce", &reps);
    if (lab.time) {
        lab_untimed(&lab, "with one GPU there is nothing to time against; the lab is judged on its results");
        return lab_end(&lab);
    }
    int gpus = 0;
    CUDA_CHECK(cudaGetDeviceCount(&gpus));
    if (gpus > MAX_GPUS) {
        printf("  this machine shows %d GPUs; the lab uses the first %d (CUDA_VISIBLE_DEVICES chooses them)\n",
               gpus, MAX_GPUS);
        gpus = MAX_GPUS;
    }
    printf("  %d GPU%s: %s\n", gpus, gpus > 1 ? "s" : "",
           gpus > 1 ? "every element is the sum of one value from each"
                    : "one rank, so the sum of one array is that array, copied into recv");
    /* One element, a few (NCCL moves 16 bytes at a time), around a warp, a prime past NCCL's small
     * messages, and a few million: NCCL picks its protocol by size, so each is a different path. */
    const long long sizes[] = {1, 3, 33, 1000, 100003, (1LL << 22) + 5};
    const long long n_max = sizes[COUNT_OF(sizes) - 1];
    int big = 0;  /* the sizes past --small's, all the GPUs' arrays together */
    for (int k = 0; k < COUNT_OF(sizes); k++)
        big += gpus * sizes[k] > LAB_SMALL_ELEMENTS;
    lab_big_sizes(&lab, big);
    float *in = (float *)host_alloc(gpus * n_max * sizeof(float));
    float *got = (float *)host_alloc(gpus * n_max * sizeof(float)), *want = (float *)host_alloc(n_max * sizeof(float));
    int finished[MAX_GPUS];
    /* Positive terms, so that the sum's rounding is small against the sum: a sum of G of them, added in
     * whatever order NCCL chooses (it is not said), takes G - 1 roundings, and the reference here one. */
    const double tolerance = gpus > 1 ? gpus * FLOAT_ROUNDING : 0.0;
    const char *why = gpus > 1 ? "a sum of one float from each GPU, in the order NCCL chooses: one rounding an addition"
                               : "one GPU: its array copied, exactly";
    for (int k = 0; k < COUNT_OF(sizes); k++) {
        long long n = sizes[k];
        if (lab_skip(&lab, gpus * n))
            continue;
        unsigned long long seed = lab_fresh(&lab);  /* this call's arrays: GPU g's from stream 1 + g */
        for (int g = 0; g < gpus; g++)
            for (long long i = 0; i < n; i++)
                in[g * n + i] = lab_value(seed, 1 + g, i, VALUE_LOW, VALUE_HIGH);
        for (long long i = 0; i < n; i++) {
            double sum = 0.0;
            for (int g = 0; g < gpus; g++)
                sum += in[g * n + i];
            want[i] = (float)sum;
        }
        struct lab_call c;
        lab_call_start(&c);
        lab_host_in(&c, in, gpus * n * sizeof(float));
        lab_host_out(&c, got, gpus * n * sizeof(float));
        lab_int(&c, n);
        lab_int(&c, gpus);
        lab_host_out(&c, finished, gpus * sizeof(int));
        if (lab_run(&lab, &c)) {
            if (gpus > 1 && wall_seconds() >= lab.deadline)
                lab_hint(&lab, "the time ran out inside your function: with one thread for every GPU, an ncclAllReduce "
                               "outside ncclGroupStart()/ncclGroupEnd() waits for the other GPUs' calls, which that "
                               "thread never reaches");
            break;
        }
        int failures = lab.failures;
        /* The checks say nothing when they pass: one line for all the GPUs below. The framework's own
         * hints speak of threads and tiles; this lab's are in hint_allreduce. */
        lab.quiet = 1;
        for (int g = 0; g < gpus; g++) {
            char what[64];
            snprintf(what, sizeof what, "n = %lld, GPU %d's recv", n, g);
            int hinted = lab.hinted;
            lab.hinted = 2;
            int wrong = lab_check_floats(&lab, what, got + g * n, want, n, 0, tolerance, why);
            lab.hinted = hinted;
            if (wrong)
                hint_allreduce(&lab, got + g * n, in, n, gpus);
        }
        lab.quiet = 0;
        for (int g = 0; g < gpus; g++)
            if (finished[g] != 1) {
                printf("  n = %lld: FAIL, your function returned before GPU %d's stream had finished (the runner "
                       "gives each stream 50 ms of its own work before the call: a function that waits for its "
                       "stream returns after that)\n", n, g);
                lab_hint(&lab, "NCCL only queues the all-reduce on the streams: wait for every GPU's stream "
                               "(cudaStreamSynchronize(streams[g]) for each g) before returning");
                lab.failures++;
                break;
            }
        if (lab.failures == failures)
            printf("  n = %lld: PASS (every element of recv on %d GPU%s %s; every stream finished at the return)\n",
                   n, gpus, gpus > 1 ? "s" : "", tolerance > 0 ? "within the sum's rounding" : "exact");
        else if (lab.failures >= 3)
            break;
    }
    free(in), free(got), free(want);
    return lab_end(&lab);
}
