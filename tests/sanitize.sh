#!/bin/sh
# make sanitize: every run of tests/runs.txt under compute-sanitizer's memcheck, racecheck, synccheck
# and initcheck must be clean, except where tests/sanitize_expect.txt says a tool must report an error
# (the deliberate races): there the test fails if the tool stays silent.
# ONLY=PATTERN (make sanitize ONLY=ch4) keeps the runs whose line matches PATTERN.
. tests/tap.sh
if ! have_gpu; then
    echo "1..0 # SKIP compute-sanitizer needs a GPU"
    exit 0
fi
command -v compute-sanitizer >/dev/null || { echo "Bail out! compute-sanitizer not on PATH"; exit 1; }
out=$(mktemp)
list=$(mktemp)
trap 'rm -f "$out" "$out".* "$list"' EXIT

# expected TOOL PROGRAM ARGS: "error" if sanitize_expect.txt lists it, else "clean".
expected() {
    grep -v '^[[:space:]]*\(#\|$\)' tests/sanitize_expect.txt 2>/dev/null |
        awk -v key="$*" '{ e = $1; $1 = ""; sub(/^ /, ""); if ($0 == key) { print e; found = 1 } }
                         END { if (!found) print "clean" }'
}

{ runs; grep -v '^[[:space:]]*\(#\|$\)' tests/sanitize_expect.txt 2>/dev/null | cut -d' ' -f3-; } |
    sort -u | grep -e "${ONLY:-}" >"$list"
tools="memcheck racecheck synccheck initcheck"
while read -r line; do
    if why=$(not_built "${line%% *}"); then  # make left it out: no MPI, or no NCCL
        for tool in $tools; do skip "$tool: $line" "$why"; done
        continue
    fi
    # The four tools on one run side by side (each instruments its own copy of the program), then
    # reported in order.
    for tool in $tools; do
        # API errors are left to the programs: each checks every CUDA call and exits 1 on one it did not
        # expect (not clean here), while device_query's launches past the limits fail on purpose.
        extra="--report-api-errors no"
        [ "$tool" = memcheck ] && extra="$extra --leak-check full"
        # NCCL's own kernels are NCCL's to check (synccheck and initcheck flag their barriers and
        # buffers); ours run instrumented beside them. No kernel of the course has "nccl" in its name.
        extra="$extra --kernel-name-exclude kns=nccl"
        # A time limit, so that a hang (a lock that never frees) fails the test instead of the suite.
        { timeout 300 compute-sanitizer --tool $tool $extra --error-exitcode 86 ./$line </dev/null >"$out.$tool" 2>&1
          echo $? >"$out.$tool.code"; } &
    done
    wait
    for tool in $tools; do
        want=$(expected "$tool $line")
        code=$(cat "$out.$tool.code")
        if [ "$want" = "error" ]; then
            ok $((code != 86)) "$tool reports the error in: $line" "exit $code; $(tail -n 3 "$out.$tool")"
        elif [ "$code" = 77 ]; then  # this GPU cannot run it, and the program said why
            skip "$tool: $line" "$(tail -n 1 "$out.$tool" | cut -c1-100)"
        else
            ok $((code != 0)) "$tool clean: $line" \
               "exit $code; $(grep -a -m 5 -E 'Error|Hazard|ERROR|error' "$out.$tool")"
        fi
    done
done <"$list"
done_testing
