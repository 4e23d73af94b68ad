#!/bin/sh
# The command-line contract of every program (../shared/CONVENTIONS.md): -h exits 0; an unknown option
# or a malformed number exits 2 with one line naming it; no device exits 77; a device id that does not
# exist is a usage error (2) on a GPU machine.
. tests/tap.sh
[ -n "${PROGRAMS:-}" ] || { echo "Bail out! PROGRAMS is empty: run through 'make test'"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

for p in $PROGRAMS; do
    help=$(./$p -h 2>&1); code=$?
    echo "$help" | grep -q "^usage: "; ok $((code != 0 || $?)) "$p -h prints usage, exit 0" "exit $code"

    ./$p --no-such-option >/dev/null 2>"$err"; code=$?
    head -n 1 "$err" | grep -q -- "--no-such-option: unknown option"
    ok $((code != 2 || $?)) "$p --no-such-option: exit 2, names it" "exit $code: $(head -n 1 "$err")"

    ./$p --device 1x >/dev/null 2>"$err"; code=$?
    head -n 1 "$err" | grep -q -- "--device: '1x'"
    ok $((code != 2 || $?)) "$p --device 1x: exit 2, names it" "exit $code: $(head -n 1 "$err")"

    if echo "$help" | grep -q '^  -n '; then
        for bad in 12x -5 0 1.5; do
            ./$p -n "$bad" >/dev/null 2>"$err"; code=$?
            head -n 1 "$err" | grep -q -- "-n: '$bad'"
            ok $((code != 2 || $?)) "$p -n $bad: exit 2, names it" "exit $code: $(head -n 1 "$err")"
        done
    fi

    CUDA_VISIBLE_DEVICES= ./$p >/dev/null 2>"$err"; code=$?
    grep -q "no usable CUDA device" "$err"
    ok $((code != 77 || $?)) "$p with no visible device: exit 77, says so" "exit $code: $(head -n 1 "$err")"

    if have_gpu; then
        ./$p --device 999 >/dev/null 2>"$err"; code=$?
        grep -q "no such device" "$err"
        ok $((code != 2 || $?)) "$p --device 999: exit 2, no such device" "exit $code: $(head -n 1 "$err")"
    else
        ./$p --device 0 >/dev/null 2>"$err"; code=$?
        ok $((code != 77)) "$p without a GPU: exit 77" "exit $code: $(head -n 1 "$err")"
    fi
done

# A launch shape past the grid's limit is a usage error, found before the GPU is touched: exit 2 with no
# device too.
CUDA_VISIBLE_DEVICES= ./ch1_embarrassing/add_array -n 4e9 --threads 1 >/dev/null 2>"$err"; code=$?
grep -q "grid's x limit" "$err"
ok $((code != 2 || $?)) "add_array -n 4e9 --threads 1: exit 2 before any GPU work" "exit $code: $(head -n 1 "$err")"
done_testing
