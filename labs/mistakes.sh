#!/bin/sh
# make lab-mistakes [CSV=FILE]: every planted mistake of labs/solutions/mistakes.txt graded by labs/grade:
# four at a time without the timing, then the "slow" ones alone, timed against their solution. A line
# each (caught or not, and the verdict); CSV=FILE also writes them as a CSV file
# (mistake,expected,correct,sanitizer,verdict) opening with the device and the date. Exit 0 when each
# mistake was caught by the report it is planted for; 1 when one was not, or CSV could not be written.
# REPORT=R grades only the mistakes planted for report R (REPORT=slow: the "lesson left out" ones, which must
# also be slow in a hand-out: their share of the limit under labs/targets.txt's target for this GPU's class).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/csv.sh"
# From any folder: CSV as the caller meant it, then the course's root.
case ${CSV:-} in ''|/*) ;; *) CSV=$PWD/$CSV ;; esac
cd "$here/.." || exit 2
[ -f labs/solutions/mistakes.txt ] ||
    { echo "make lab-mistakes: a hand-out has no solutions, so no planted mistakes"; exit 0; }
csv_refuse "${CSV:-}"
nvidia-smi -L >/dev/null 2>&1 ||
    { echo "make lab-mistakes: no GPU here; the mistakes are built, not checked"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A report that ends in /2gpus (wrong/2gpus): the mistake shows only where two GPUs are visible (NCCL
# across GPUs, MPI at -np 2); with fewer it is said skipped, not graded.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    visible=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
    [ "$visible" -lt "$gpus" ] && gpus=$visible
fi
# $out/list: "LAB.NAME REPORT" of each mistake to grade; $out/skipped: "LAB.NAME REPORT GPUS" of those
# that need more GPUs than this machine has.
: >"$out/skipped"
grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt |
    awk -v gpus="$gpus" -v skipped="$out/skipped" -v r="${REPORT:-}" '{
    lab = $1; name = $2; report = $3; need = 1
    if (match(report, /\/[0-9]+gpus$/)) {
        need = substr(report, RSTART + 1) + 0; report = substr(report, 1, RSTART - 1)
    }
    if (r != "" && report != r) next
    if (need > gpus) print lab "." name, report, need >skipped
    else print lab "." name, report }' >"$out/list"
[ -s "$out/list" ] || [ -s "$out/skipped" ] ||
    { echo "make lab-mistakes: no mistake planted for report '${REPORT:-}'" >&2; exit 2; }
while read -r name report need; do
    printf '  %-40s %-10s %-11s %s\n' "$name" "$report" skipped \
        "it shows only on $need GPUs, and this machine has $gpus"
done <"$out/skipped"
export MISTAKES_OUT="$out"  # (xargs appends LAB.NAME)
while read -r name report; do [ "$report" = slow ] || echo "$name"; done <"$out/list" | xargs -P 4 -L 1 sh -c \
    'LAB_NO_TIME=1 sh labs/grade "${1%%.*}" "output/labs/mistakes/$1.cu" >"$MISTAKES_OUT/$1.out" 2>&1 </dev/null
     echo $? >"$MISTAKES_OUT/$1.code"' sh
# The CSV's columns; each row takes its fields by these names (labs/csv.sh: csv_row). The slow ones,
# timed, go last.
columns=mistake,expected,correct,sanitizer,verdict
: >"$out/rows"
: >"$out/slow_rows"
status=0
# handout_slow REPORT: the grade's share of the limit is under the hand-out target it names for this GPU's
# class (grade-handout-target, labs/targets.txt's), as labs/grade compares without a solution; the verdict
# says both.
handout_slow() {
    reached=$(csv_field "$1" percent-of-limit) target=$(csv_field "$1" handout-target)
    verdict="$verdict; $reached% of the limit, a hand-out's target ${target:-?}%"
    [ -n "$target" ] && [ "$reached" != - ] && [ -n "$reached" ] && [ "$reached" -lt "$target" ]
}
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
              verdict="PASS but slow ($(csv_field "$out/$name.out" percent-of-solution)% of the solution)" &&
              handout_slow "$out/$name.out" ;;
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
    rows=$out/rows
    [ "$report" != slow ] || rows=$out/slow_rows
    csv_row "$out/$name.out" "$columns" mistake="$name" expected="$report" correct="$correct" sanitizer="$sanitizer" \
        verdict="$verdict" >>"$rows"
done <"$out/list"
if [ -n "${CSV:-}" ]; then
    # The CSV opens as the labs' grade books do: a line naming the device and the date.
    device=$(csv_device "$out"/*.out)
    { echo "# device: ${device:-unknown}, $(date -u '+%Y-%m-%d %H:%M') UTC"
      echo "$columns"
      sort -t, -k1,1 "$out/rows"  # (by the mistake's name, the first column)
      cat "$out/slow_rows"; } | csv_write "$CSV" || status=1
fi
exit $status
