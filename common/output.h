/* output.h: where the programs write their files.
 *   make_dir("output/ch2");               mkdir -p; exit 1 with a message if it cannot
 *   make_parent_dir("output/ch2/a.csv");  the folder a file will go in */
#ifndef COMMON_OUTPUT_H
#define COMMON_OUTPUT_H
#ifdef __cplusplus
extern "C" {
#endif

void make_dir(const char *dir);
void make_parent_dir(const char *path);

#ifdef __cplusplus
}
#endif
#endif
