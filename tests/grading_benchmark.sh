#!/bin/sh
# How long grading takes on this machine's GPUs (issue 50's figures), alone on a quiet machine:
#   sh tests/grading_benchmark.sh OUT [STUDENTS]
# 1. make labs SOLUTIONS=1 (every lab's solution graded, as make labs grades: two at once where it may),
#    its seconds, and a grade's median over the 30 solutions, the sum of its steps (grade-step-seconds);
# 2. a class of STUDENTS (20) and every lab, graded by labs/gradebook on the GPUs CUDA_VISIBLE_DEVICES
#    shows (tests/class_benchmark.sh).
# OUT/grading_times.txt says both, with the device and the commit; OUT/solutions.csv, OUT/steps.txt (each
# solution's steps and runs), OUT/class_N.csv and .md are what they were read from. A benchmark, not a test.
set -u
out=${1:?usage: sh tests/grading_benchmark.sh OUT [STUDENTS]}
students=${2:-20}
mkdir -p "$out" || exit 2
case $out in /*) ;; *) out=$PWD/$out ;; esac
start=$(date +%s)
make labs SOLUTIONS=1 CSV="$out/solutions.csv" >"$out/make_labs.log" 2>&1
labs_code=$? labs_seconds=$(( $(date +%s) - start ))
for report in output/labs/reports/*.txt; do
    printf '%s %s | %s\n' "$(basename "$report" .txt)" "$(sed -n 's/^grade-step-seconds //p' "$report")" \
        "$(sed -n 's/^grade-run-seconds //p' "$report")"
done >"$out/steps.txt"
# (a grade's seconds: its steps', the waits for the GPU included)
median=$(awk '{ s = 0; for (i = 2; i <= NF && $i != "|"; i += 2) s += $(i + 1); print s }' "$out/steps.txt" |
         sort -n | awk '{ v[NR] = $1 }
                        END { if (NR) printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
sh tests/class_benchmark.sh "$students" "$out/class_$students" >"$out/class.log" 2>&1
class_code=$?
{ echo "# $(sed -n '1s/^# device: //p' "$out/solutions.csv"), commit $(git rev-parse --short HEAD 2>/dev/null)"
  echo "make labs SOLUTIONS=1: $labs_seconds s (exit $labs_code), $(grep -c ',PASS,' "$out/solutions.csv") labs PASS"
  echo "a grade of a lab's solution: median $median s over $(wc -l <"$out/steps.txt") labs (the sum of its steps)"
  tail -n 1 "$out/class.log"; } >"$out/grading_times.txt"
cat "$out/grading_times.txt"
[ "$labs_code" = 0 ] && [ "$class_code" = 0 ]
