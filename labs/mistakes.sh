#!/bin/sh
# make lab-mistakes [CSV=FILE]: every planted mistake of labs/solutions/mistakes.txt graded by labs/grade,
# as tests/labs.t grades them: four at a time without the timing, then the "slow" ones alone, timed
# against their solution. A line each (caught or not, and the verdict); CSV=FILE also writes the table
# that labs/README.md renders. Exit 0 when each mistake was caught by the report it is planted for.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/csv.sh"
# From any folder: CSV as the caller meant it, then the course's root.
case ${CSV:-} in ''|/*) ;; *) CSV=$PWD/$CSV ;; esac
cd "$here/.." || exit 2
[ -f labs/solutions/mistakes.txt ] || { echo "make lab-mistakes: a hand-out has no solutions, so no planted mistakes"; exit 0; }
csv_refuse "${CSV:-}"
nvidia-smi -L >/dev/null 2>&1 || { echo "make lab-mistakes: no GPU here; the mistakes are built, not checked"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A report that ends in /2gpus (wrong/2gpus): the mistake shows only where two GPUs are visible (NCCL
# across GPUs, MPI at -np 2); with fewer it is said skipped, not graded.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    visible=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
    [ "$visible" -lt "$gpus" ] && gpus=$visible
fi
grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt | awk -v gpus="$gpus" '{
    need = 1; report = $3
    if (match(report, /\/[0-9]+gpus$/)) { need = substr(report, RSTART + 1) + 0; report = substr(report, 1, RSTART - 1) }
    print $1 "." $2, report, need, (need > gpus ? "skip" : "run") }' >"$out/all"
awk '$4 == "run" { print $1, $2 }' "$out/all" >"$out/list"
awk '$4 == "skip"' "$out/all" | while read -r name report need _; do
    printf '  %-40s %-10s %-11s %s\n' "$name" "$report" skipped "it shows only on $need GPUs, and this machine has $gpus"
done
export MISTAKES_OUT="$out"  # (xargs appends NAME REPORT)
awk '$2 != "slow"' "$out/list" | xargs -P 4 -L 1 sh -c \
    'LAB_NO_TIME=1 sh labs/grade "${1%%.*}" "output/labs/mistakes/$1.cu" >"$MISTAKES_OUT/$1.out" 2>&1 </dev/null
     echo $? >"$MISTAKES_OUT/$1.code"' sh
status=0
while read -r name report; do
    if [ "$report" = slow ]; then
        LAB_SANITIZE=0 sh labs/grade "${name%%.*}" "output/labs/mistakes/$name.cu" >"$out/$name.out" 2>&1 </dev/null
        echo $? >"$out/$name.code"
    fi
    code=$(cat "$out/$name.code")
    correct=$(csv_field "$out/$name.out" correct)
    sanitizer=$(csv_field "$out/$name.out" sanitizer)
    verdict=$(csv_field "$out/$name.out" verdict)
    case $report in
        wrong) [ "$code" = 1 ] && [ "$correct" = no ] ;;
        slow) [ "$correct" = yes ] && [ "$(csv_field "$out/$name.out" speed)" = slow ] && sanitizer="not run" &&
              verdict="PASS but slow ($(csv_field "$out/$name.out" percent-of-solution)% of the solution)" ;;
        *) [ "$code" = 1 ] && echo "$sanitizer" | grep -q "$report" ;;
    esac
    if [ $? = 0 ]; then
        caught=caught
    elif [ "$code" = 77 ] && echo "$verdict" | grep -q '^not run (no .* here)$'; then
        caught=skipped  # a lab whose library this machine lacks (rules.txt: link)
    else
        caught="NOT CAUGHT"; status=1
    fi
    printf '  %-40s %-10s %-11s %s\n' "$name" "$report" "$caught" "${verdict:-no report (exit $code)}"
    echo "$name,$report,$correct,$sanitizer,$verdict" >>"$out/rows"
done <"$out/list"
if [ -n "${CSV:-}" ]; then
    # The CSV opens as the labs' grade books do: a line naming the device and the date.
    device=$(sed -n 's/^grade-device device [0-9]*: \([^,]*, compute capability [0-9.]*\),.*/\1/p' "$out"/*.out | head -n 1)
    { echo "# device: ${device:-unknown}, $(date -u '+%Y-%m-%d %H:%M') UTC"
      echo "mistake,expected,correct,sanitizer,verdict"
      grep -v ',slow,' "$out/rows" | sort -t, -k1,1
      grep ',slow,' "$out/rows"; } | csv_write "$CSV"
fi
exit $status
