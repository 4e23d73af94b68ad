/* output.h: files the programs write appear whole or not at all.
 *   FILE *f = output_open("output/ch2/ladder.csv");   a temporary file beside it, its folder made
 *   if (fprintf(f, ...) < 0) output_failed(f);       any failed write: message, exit 1
 *   output_close(f);                                 flush, sync, close, rename into place; exit 1 if any failed
 *   const char *why = output_path_problem(path, 0);  NULL, or why no file can be made there (1: a folder)
 * The temporary file (.ladder.csv.XXXXXX in the same folder) is renamed over the path only when every
 * write succeeded, so a failed or interrupted run (exit, Ctrl-C, a full disk) leaves the old file as it
 * was and removes its temporary file; two runs writing the same path leave one complete file. A path
 * that exists and is not a regular file (/dev/stdout, a FIFO) is written in place. As with a shell's >,
 * a file the user may not write is not replaced (exit 1) and a file replaced keeps its mode. cli.h checks
 * output paths with output_path_problem right after parsing (CLI_OUTPUT_FILE, CLI_OUTPUT_DIR): it makes
 * no folder, so a run refused later, or one without a GPU, leaves none behind; output_open makes them. */
#ifndef COMMON_OUTPUT_H
#define COMMON_OUTPUT_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

FILE *output_open(const char *path);
void output_failed(FILE *f);
void output_close(FILE *f);
const char *output_path_problem(const char *path, int is_dir);

#ifdef __cplusplus
}
#endif
#endif
