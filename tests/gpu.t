#!/bin/sh
# Every program at a small size (tests/runs.txt) must exit 0 and print "check: PASS" and no FAIL.
# Without a GPU each run is reported as skipped; so is a run that exits 77 saying this GPU cannot run it
# (sgemm_hopper on anything but a Hopper, sgemm_tensor before compute capability 8.0 or built without code
# for it), with its reason.
. tests/tap.sh
[ -n "${PROGRAMS:-}" ] || { echo "Bail out! PROGRAMS is empty: run through 'make test'"; exit 1; }
out=$(mktemp)
list=$(mktemp)
trap 'rm -f "$out" "$list"' EXIT

# Each program must have at least one run, so a new program cannot go untested.
runs >"$list"
for p in $PROGRAMS; do
    grep -q "^$p\( \|$\)" "$list"; ok $? "$p has a run in tests/runs.txt"
done

while read -r line; do
    if why=$(not_built "${line%% *}"); then  # make left it out: no MPI, or no NCCL
        skip "$line" "$why"
        continue
    fi
    if ! have_gpu; then
        skip "$line" "no GPU"
        continue
    fi
    timeout 300 ./$line </dev/null >"$out" 2>&1; code=$?  # a hang fails, not stalls
    if [ $code = 77 ]; then
        skip "$line" "$(tail -n 1 "$out" | cut -c1-100)"
        continue
    fi
    grep -q "^check: PASS" "$out" && ! grep -q "^check: FAIL" "$out"
    ok $((code != 0 || $?)) "$line: exit 0, check: PASS" "exit $code; last lines: $(tail -n 5 "$out")"
done <"$list"
done_testing
