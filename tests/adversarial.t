#!/bin/sh
# Adversarial runs (tests/adversarial.txt): each must end with its expected exit status within 120 s.
# Runs expecting 2 are usage errors found before the device starts, so they run without a GPU too; the
# runs of a program make did not build (no MPI, no NCCL) are skipped, naming the part. Then
# a program whose CSV cannot be written completely must exit 1 and leave the old file as it was.
. tests/tap.sh
out=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$out" "$dir"' EXIT

grep -v '^[[:space:]]*\(#\|$\)' tests/adversarial.txt | while read -r want line; do
    if why=$(not_built "${line%% *}"); then  # make left it out: no MPI, or no NCCL
        skip "$line: exit $want" "$why"
        continue
    fi
    if [ "$want" != 2 ] && ! have_gpu; then
        skip "$line: exit $want" "no GPU"
        continue
    fi
    start=$(date +%s)
    timeout 120 ./$line </dev/null >"$out" 2>&1; code=$?
    seconds=$(($(date +%s) - start))
    if [ "$want" = 0 ] && [ "$code" = 1 ] && grep -q "^not enough memory" "$out"; then
        skip "$line: exit 0" "$(grep -m 1 "^not enough memory" "$out")"
        continue
    fi
    # A usage error is one line naming the problem, then the hint; never a FAIL printed as a check.
    [ "$code" = "$want" ] && ! { [ "$want" = 2 ] && grep -q "^check:" "$out"; }
    ok $? "$line: exit $want in $seconds s" "exit $code; last lines: $(tail -n 3 "$out")"
done >"$dir/tap"
cat "$dir/tap"
count=$(grep -c '^ok\|^not ok' "$dir/tap")
failed=$(grep -c '^not ok' "$dir/tap")

# A write that fails half-way (ulimit -f: 1 KiB, the histogram's counts are 3 KiB) exits 1; the old file
# stays whole and no temporary file is left beside it.
if have_gpu; then
    echo "old contents" >"$dir/histogram.csv"
    (ulimit -f 1; ./ch4_atomics_mutex/histogram -r 1 --counts "$dir/histogram.csv" >"$out" 2>&1); code=$?
    [ "$code" = 1 ] && grep -q "cannot write .*File too large" "$out" &&
        [ "$(cat "$dir/histogram.csv")" = "old contents" ] && [ -z "$(ls -A "$dir" | grep '^\.')" ]
    ok $? "histogram --counts past ulimit -f: exit 1, the old file intact, no temporary file" \
        "exit $code: $(tail -n 2 "$out"); $(ls -A "$dir")"
else
    skip "histogram --counts past ulimit -f: exit 1, the old file intact" "no GPU"
fi
done_testing
