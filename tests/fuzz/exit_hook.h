/* exit_hook.h: force-included when fuzz_cli builds common/cli.c, so that its exit() (usage errors,
 * -h) returns to the harness through longjmp instead of ending the fuzzer. */
#ifndef FUZZ_EXIT_HOOK_H
#define FUZZ_EXIT_HOOK_H
_Noreturn void fuzz_exit(int code);
#define exit fuzz_exit
#endif
