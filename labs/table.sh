#!/bin/sh
# make labs [SOLUTIONS=1] [CSV=file]: every file compiled first (as many at once as there are CPUs), then
# every lab graded by labs/grade (two at once where the machine has the CPUs, each timed alone: LABS_WORKERS
# below), each report kept in output/labs/reports/LAB.txt, then one table in the labs' order; CSV=FILE also
# writes it as a grade book, one row a lab.
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
# Two grades at once where the GPU can be shared (flock, and CPUs for both grades' four processes): each
# times alone, the other's correctness and sanitizer steps wait meanwhile (labs/steps/run.sh: gpu_lock);
# LABS_WORKERS=N sets how many (1: one lab after another).
workers=${LABS_WORKERS:-1}
# (not through MPS, whose every client gets its own share of the SMs: two grades, twice the emulated card)
[ -n "${LABS_WORKERS:-}" ] || ! command -v flock >/dev/null 2>&1 || [ "$(nproc 2>/dev/null || echo 1)" -lt 8 ] ||
    [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] || workers=2
case $workers in
    ''|*[!0-9]*|0) echo "make labs: LABS_WORKERS='$workers': a number of grades at once" >&2; exit 2 ;;
esac
mkdir -p output/labs/reports
# The grade book's columns; each row takes its fields by these names (labs/csv.sh: csv_row).
columns=lab,verdict,exit,correct,sanitizer,time_ms,percent_of_solution,percent_of_limit,limit,seed,sha256,seconds,file
rows=$(mktemp)
trap 'rm -rf "$rows" "$rows.d"' EXIT
echo "$columns" >"$rows"
status=0
start=$(date +%s)
file_of() { if [ "$kind" = students ]; then echo "labs/$1.cu"; else echo "labs/solutions/$1.cu"; fi; }
# Every file is compiled first, several at once (labs/build_first.sh).
for lab in "$@"; do printf '%s\n' "$lab" "$(file_of "$lab")"; done | sh "$here/build_first.sh"
LAB_GPU_LOCK=$(mktemp -d)/gpu
export LAB_GPU_LOCK
trap 'rm -rf "$rows" "$rows.d" "${LAB_GPU_LOCK%/gpu}"' EXIT  # (the locks' folder too)
mkdir "$rows.d"
k=0
for lab in "$@"; do k=$((k + 1)); printf '%s\n' "$k" "$lab" "$(file_of "$lab")"; done |
    xargs -r -d '\n' -n 3 -P "$workers" sh -c '
        . "$0/csv.sh"
        columns=$1 dir=$2 k=$3 lab=$4 file=$5 t0=$(date +%s) report=output/labs/reports/$4.txt
        sh "$0/grade" "$lab" "$file" >"$report" 2>&1 </dev/null
        code=$?
        csv_row "$report" "$columns" lab="$lab" exit="$code" seconds="$(( $(date +%s) - t0 ))" file="$file" >"$dir/$k"
        printf "  %-20s %s\n" "$lab" "$(csv_field "$report" verdict)"' "$here" "$columns" "$rows.d"
for k in $(seq $#); do cat "$rows.d/$k" 2>/dev/null; done >>"$rows"  # (in the labs' order)
# (a lab whose grade left no row, or one not PASS)
[ "$(csv_select "$rows" exit | grep -c '^0$')" = $# ] || status=1
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
