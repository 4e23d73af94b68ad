/* Lab ch4_equalize: histogram equalisation, the course in one lab (chapter 4, going further:
 * equalize.cu; it needs chapter 1's 2D kernels, chapter 2's shared memory and chapter 4's atomics and
 * scan).
 *
 * A dark, low-contrast 8-bit picture uses few of its 256 grey levels. Equalisation spreads them: the
 * level v becomes lut[v] = round((cdf[v] - cdf_min) x 255 / (total - cdf_min)), where cdf[v] counts the
 * pixels of level <= v, cdf_min is the smallest non-zero cdf[v] (the count of the darkest level present)
 * and total = width x height. Levels below the darkest present map to 0; a picture of one level only
 * (total == cdf_min) stays as it is, lut[v] = v. Round half up in integers: (a x 255 + b / 2) / b with a
 * and b as above, in 64 bits. Write three kernels and their launches in lab_equalize:
 *   1. histogram: bins[v] = the pixels of level v (bins arrives holding garbage: zero it first);
 *   2. make_lut: one block of 256 threads scans bins into cdf in shared memory and writes lut;
 *   3. apply: out[y][x] = lut[in[y][x]], a 2D grid over the picture, guarded on x and y.
 *
 * Contract:
 *   sizes: checked width x height = 1 x 1, 31 x 33, 1025 x 7, 7 x 1025, 1023 x 1025, 7681 x 4321; timed
 *     7681 x 4321.
 *   pointers: in and out (width x height bytes, a row every width bytes), bins (256 unsigned) and lut (256
 *     bytes), each its own cudaMalloc of exactly that: 256-byte aligned, never offset.
 *   zero: width and height are at least 1.
 *   values: 8-bit levels: the course's test picture, dark and low-contrast, lifted by 0 to 7 levels with a
 *     noise of 0 to 3, and one pixel in 4096 of any level, drawn afresh for every call; out, bins and lut
 *     arrive filled with 0xff bytes.
 *   index: 32-bit: width x height is below 2^31 (at most 33,189,601 here); the table's formula needs 64.
 *   binding: the Rules line and bins, lut and out, each checked exactly; the three kernels' launches are
 *     yours.
 *
 * Rules: no CUB, no host loops over pixels or levels (the judge checks bins, lut and the picture).
 * Target: 70% of the course's solution's speed; the limit is the device-to-device copy bandwidth (the
 * picture is read twice and written once).
 * In a hand-out, without the solution to time: the share of that limit that labs/targets.txt sets for
 * the GPU's class, small or large (the report names the class and the share).
 *   make lab L=ch4_equalize
 */

#define LEVELS 256

__global__ void histogram(const unsigned char *in, long long pixels, unsigned *bins)
{
    /* your code here */
}

__global__ void make_lut(const unsigned *bins, long long pixels, unsigned char *lut)
{
    /* your code here */
}

__global__ void apply(const unsigned char *in, unsigned char *out, int width, int height, const unsigned char *lut)
{
    /* your code here */
}

/* The runner calls this with arrays on the GPU: bins holds 256 counts, lut 256 levels. */
void lab_equalize(const unsigned char *in, unsigned char *out, int width, int height, unsigned *bins,
                  unsigned char *lut, int sms)
{
    /* your launches here */
}
