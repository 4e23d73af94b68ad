#!/bin/sh
# make labs [SOLUTIONS=1] [CSV=file]: every file compiled first (as many at once as there are CPUs), then
# every lab graded in turn by labs/grade, each report kept in output/labs/reports/LAB.txt, then one table;
# CSV=FILE also writes it as a grade book, one row a lab.
#   sh labs/table.sh students|solutions LAB...    the files in labs/, or the course's solutions
# Exit 0 when every lab is PASS, 1 otherwise or when CSV could not be written, 2 when CSV cannot be a
# regular file or a hand-out is asked for its solutions.
set -u
trap '' XFSZ  # past a file-size limit a write fails (and is reported) instead of killing the script
here=$(cd "$(dirname "$0")" && pwd)
. "$here/csv.sh"
# From any folder: CSV as the caller meant it, then the course's root.
case ${CSV:-} in ''|/*) ;; *) CSV=$PWD/$CSV ;; esac
cd "$here/.." || exit 2
kind=$1
shift
csv_refuse "${CSV:-}"
[ "$kind" = students ] || [ -d labs/solutions ] ||
    { echo "make labs SOLUTIONS=1: this is a hand-out, which has no solutions (labs/solutions/ is not in it)" >&2
      exit 2; }
mkdir -p output/labs/reports
# The grade book's columns; each row takes its fields by these names (labs/csv.sh: csv_row).
columns=lab,verdict,exit,correct,sanitizer,time_ms,percent_of_solution,percent_of_limit,limit,seed,sha256,seconds,file
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
echo "$columns" >"$rows"
status=0
start=$(date +%s)
file_of() { if [ "$kind" = students ]; then echo "labs/$1.cu"; else echo "labs/solutions/$1.cu"; fi; }
# Every file is compiled first, several at once (labs/build_first.sh).
for lab in "$@"; do printf '%s\n' "$lab" "$(file_of "$lab")"; done | sh "$here/build_first.sh"
for lab in "$@"; do
    t0=$(date +%s)
    file=$(file_of "$lab")
    report=output/labs/reports/$lab.txt
    sh "$here/grade" "$lab" "$file" >"$report" 2>&1 </dev/null
    code=$?
    [ $code = 0 ] || status=1
    csv_row "$report" "$columns" lab="$lab" exit="$code" seconds="$(( $(date +%s) - t0 ))" file="$file" >>"$rows"
    printf '  %-20s %s\n' "$lab" "$(csv_field "$report" verdict)"
done
echo
echo "make labs ($kind, $(( $(date +%s) - start )) s; the reports in output/labs/reports/):"
{ echo "lab,verdict,correct,sanitizer,time (ms),% of solution,% of limit"
  csv_select "$rows" lab verdict correct sanitizer time_ms percent_of_solution percent_of_limit; } |
    awk -F, '{ printf "%-20s %-44s %-7s %-11s %-10s %-14s %s\n", $1, $2, $3, $4, $5, $6, $7 }'
if [ -n "${CSV:-}" ]; then
    # The grade book opens as the programs' CSV files do: a line naming the device and the date.
    device=$(csv_device output/labs/reports/*.txt)
    { echo "# device: ${device:-unknown}, $(date -u '+%Y-%m-%d %H:%M') UTC, make labs ($kind)"
      cat "$rows"; } | csv_write "$CSV" || status=1  # (csv_write's exit ends only its part of the pipe)
fi
exit $status
