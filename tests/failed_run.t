#!/bin/sh
# A run whose check fails leaves no results file. Each program below is built again from a copy of its
# source with one kernel line broken by a sed (the fault is planted here, never a knob in the shipped
# code), with the flags make uses for it, and run with --sweep-csv into an empty folder: it must print
# "check: FAIL", exit 1 and leave neither the CSV nor its temporary file (output.h). The program as
# shipped, with the same options, must exit 0 and write the CSV: the file is absent because the check
# failed. Without a GPU only the plants are checked (each sed changes one line); a GPU that cannot run a
# program (sgemm_hopper off a Hopper: exit 77) skips it.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# PROGRAM|SED|OPTIONS: the sed breaks one line of a kernel; the options make a short run.
plants='ch5_matmul/sgemm_ladder|s/acc += sA\[ty\]\[j\] \* sB\[j\]\[tx\];/acc -= sA[ty][j] * sB[j][tx];/|--max 130 -r 1
ch5_matmul/sgemm_tensor|s/x\[now\]\[m\], y\[now\]\[j\]);/x[now][m], y[now][0]);/|--max 130 -r 1
ch5_matmul/sgemm_hopper|s/f\[kk\]\[2 \* h\] = round_to_tf32(v\.x);/f[kk][2 * h] = round_to_tf32(v.y);/|--max 130 -r 1
ch4_atomics_mutex/histogram_sweep|/atomicAdd(&histo\[/s/1u);/2u);/|-n 65537 --from 1 --to 41 --step 20 -r 2'

while IFS='|' read -r program plant options; do
    name=$(basename "$program")
    sed "$plant" "$program.cu" >"$tmp/$name.cu"
    changed=$(diff "$program.cu" "$tmp/$name.cu" | grep -c '^>')
    [ "$changed" -eq 1 ]
    ok $? "$program: the planted fault changes one line of its source" "$changed lines changed by: $plant"

    if why=$(not_built "$program"); then
        skip "$program: a failed check leaves no CSV" "$why"
        continue
    fi
    if ! have_gpu; then
        skip "$program: a failed check leaves no CSV" "no GPU"
        continue
    fi
    # make's own command for the program (its flags: sm_90a for sgemm_hopper, -lcublas), on the copy;
    # the copy's "../common/..." includes are found through -I, from the program's folder.
    make -s "$program" >/dev/null 2>&1
    build=$(make -s -B -n "$program" 2>/dev/null | grep -F " $program.cu " |
        sed "s| $program.cu | $tmp/$name.cu -I$(dirname "$program") |; s| -o $program | -o $tmp/$name |")
    sh -c "$build" >"$tmp/build.log" 2>&1
    ok $? "$program: the planted copy builds with make's flags" "$build: $(tail -n 5 "$tmp/build.log")"

    mkdir "$tmp/good" "$tmp/failed"
    # shellcheck disable=SC2086  # one word an option
    timeout 300 ./$program $options --sweep-csv "$tmp/good/$name.csv" </dev/null >"$tmp/good.log" 2>&1; code=$?
    if [ $code = 77 ]; then
        skip "$program: a failed check leaves no CSV" "$(tail -n 1 "$tmp/good.log" | cut -c1-100)"
        rm -rf "$tmp/good" "$tmp/failed"
        continue
    fi
    [ $code = 0 ] && [ -s "$tmp/good/$name.csv" ]
    ok $? "$program $options: exit 0, writes its CSV" "exit $code; $(tail -n 3 "$tmp/good.log")"

    # shellcheck disable=SC2086
    timeout 300 "$tmp/$name" $options --sweep-csv "$tmp/failed/$name.csv" </dev/null >"$tmp/failed.log" 2>&1; code=$?
    left=$(ls -A "$tmp/failed")
    [ $code = 1 ] && grep -q '^check: FAIL' "$tmp/failed.log" && [ -z "$left" ]
    ok $? "$program with a broken kernel: check: FAIL, exit 1, and no CSV" \
        "exit $code; left in the folder: ${left:-nothing}; last lines: $(tail -n 3 "$tmp/failed.log")"
    rm -rf "$tmp/good" "$tmp/failed"
done <<EOF
$plants
EOF
done_testing
