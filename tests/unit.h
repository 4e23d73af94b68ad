/* unit.h: the small TAP harness of tests/unit_common (unit_common.c holds it and main), for its parts:
 *   ok(condition, "what holds");  skip("what", "why not here");  scratch_path("name"): a file in a
 *   scratch folder;  in_child(fn, visible_devices or NULL, &output): fn run in a forked child, its exit
 *   status returned and what it printed in *output. */
#ifndef TESTS_UNIT_H
#define TESTS_UNIT_H
#include <stddef.h>

extern char scratch[256];  /* the scratch folder */
void ok(int condition, const char *name);
void skip(const char *name, const char *why);
const char *scratch_path(const char *name);
void write_file(const char *name, const void *bytes, size_t count);
char *read_text(const char *path);
int in_child(void (*fn)(void), const char *visible_devices, char **output);

/* unit_output.c */
void test_sweep(void);
void test_results(void);
void test_output(void);
void test_protections(void);

/* unit_cli.c */
void test_cli(void);

/* unit_text.c */
void test_text(void);

#endif
