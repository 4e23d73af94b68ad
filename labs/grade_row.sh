#!/bin/sh
# labs/grade_row.sh: one grade of labs/gradebook's class, a task that xargs gives it: labs/grade on one file,
# its report kept in the book's folder, its row of the book in a file of its own (the grades run side by
# side: one a GPU, or one a CPU where they are built only), then a line of progress.
#   sh labs/grade_row.sh KEY GPU STUDENT LAB FILE
# KEY orders the book's rows; GPU is the GPU's id for CUDA_VISIBLE_DEVICES, "slot" for the one of
# GRADEBOOK_GPUS at xargs's slot (GRADEBOOK_SLOT: one grade a GPU at a time), "all" for the GPUs as
# they are, "none" for a build-only grade (LAB_BUILD_ONLY=1: no GPU here). labs/gradebook sets the rest:
# GRADEBOOK_BOOK (the reports' folder), GRADEBOOK_WORK (the rows, the solutions' medians), GRADEBOOK_COLUMNS,
# GRADEBOOK_TOTAL and GRADEBOOK_START (for the estimate). Always exit 0: the grade is in the row.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/csv.sh"
key=$1 gpu=$2 student=$3 lab=$4 file=$5
work=$GRADEBOOK_WORK
if [ "$gpu" = slot ]; then  # (xargs's slots in turn over the GPUs: with two workers a GPU, slots 0 and N on GPU 0)
    set -- $GRADEBOOK_GPUS
    shift $((GRADEBOOK_SLOT % $#))
    gpu=$1
fi
at=$(printf '%s' "$gpu" | tr -c 'A-Za-z0-9-' _)  # (a MIG's id has slashes: the file names below take it)
# Grades that share a GPU share its lock (labs/steps/run.sh: gpu_lock): each times it alone.
LAB_GPU_LOCK=$work/gpu.$at
export LAB_GPU_LOCK
report=$GRADEBOOK_BOOK/$(printf '%s' "$student" | tr -c 'A-Za-z0-9._-' '_').$lab.txt
t0=$(date +%s)
# The course's solution of the lab, timed on this GPU (or these) before, is each student's reference.
solution_ms=$(cat "$work/ms.$at.$lab" 2>/dev/null)
case $gpu in
    none) LAB_BUILD_ONLY=1 sh "$here/grade" "$lab" "$file" >"$report" 2>&1 </dev/null ;;
    all) LAB_SOLUTION_MS=$solution_ms sh "$here/grade" "$lab" "$file" >"$report" 2>&1 </dev/null ;;
    *) { echo "labs/gradebook: graded on GPU $gpu alone (CUDA_VISIBLE_DEVICES=$gpu)"
         CUDA_VISIBLE_DEVICES=$gpu LAB_SOLUTION_MS=$solution_ms sh "$here/grade" "$lab" "$file" 2>&1 </dev/null
       } >"$report" ;;
esac
code=$?
case $student in
    "(solution"*) ms=$(csv_field "$report" time-ms)
                  [ "$ms" = - ] || [ -z "$ms" ] || echo "$ms" >"$work/ms.$at.$lab" ;;
esac
verdict=$(csv_field "$report" verdict)
# A grade that stopped before its verdict (exit 2: the course's side, a tool missing) says so in the book.
[ -n "$verdict" ] || verdict="not graded (labs/grade stopped with exit $code: its report says why)"
# A build-only grade that built says so in the book's words, not as LAB_BUILD_ONLY, which no one set.
[ "$gpu:$code" != none:77 ] || case $verdict in "not run (built only"*) verdict="built; not run (no GPU here)" ;; esac
{ csv_row "$report" "$GRADEBOOK_COLUMNS" student="$student" lab="$lab" exit="$code" verdict="$verdict" \
      seconds="$(( $(date +%s) - t0 ))"
  printf '%s\n' "$report"; } >"$work/rows/.$key" && mv "$work/rows/.$key" "$work/rows/$key"
# A file that does not compile: the compiler's first error, for the book's list under its table.
if grep -q '^grade-verdict FAIL (does not compile)' "$report"; then
    error=$(sed -n '/^0\. Build$/,$p' "$report" | grep -v -i warning | grep -m 1 -i 'error' | sed 's/^ *//' |
            tr '`' "'")
    [ -n "$error" ] || error="(no line names an error: see the report)"
    printf '%s %s, `%s`: `%s` (%s)\n' - "$student" "$lab" "${error#"${file%/*/*}/"}" "$report" >"$work/errors/$key"
fi
# Progress: the grades done (every worker's), and the rest at the pace so far.
done=$(ls "$work/rows" | wc -l)
[ "$done" -gt 0 ] || done=1  # (this row could not be written: the book will say so)
left=$(( ($(date +%s) - GRADEBOOK_START) * (GRADEBOOK_TOTAL - done) / done ))
if [ "$left" -ge 90 ]; then left="about $(( (left + 30) / 60 )) min left"; else left="about $left s left"; fi
[ "$done" -lt "$GRADEBOOK_TOTAL" ] || left="all done"
case $gpu in none|all) on="" ;; *) on="GPU $gpu; " ;; esac
printf '  %-20s %-18s %s  (%sgraded %d of %d, %s)\n' "$student" "$lab" "$verdict" "$on" "$done" "$GRADEBOOK_TOTAL" \
    "$left"
exit 0
