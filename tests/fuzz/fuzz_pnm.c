/* fuzz_pnm.c: libFuzzer harness for read_pnm (common/image.c), built with address and undefined-
 * behaviour sanitizers by `make fuzz`. Each input is a whole file: it goes into an in-memory file that
 * read_pnm opens by its /proc path. An image that is accepted must hold width x height x channels bytes,
 * each touched here so that the sanitizer sees a short buffer. */
#define _GNU_SOURCE
#include "../../common/image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("pnm", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    int width = 0, height = 0, channels = 0;
    char error[512];
    unsigned char *pixels = read_pnm(path, &width, &height, &channels, error, sizeof error);
    if (pixels) {
        size_t bytes = (size_t)width * height * channels;
        unsigned sum = 0;
        for (size_t i = 0; i < bytes; i++)
            sum += pixels[i];
        if (width < 1 || height < 1 || (channels != 1 && channels != 3) || bytes > size || sum == 0xdeadbeef)
            abort();
        free(pixels);
    } else if (!error[0]) {
        abort();  /* a refusal always says why */
    }
    return 0;
}
