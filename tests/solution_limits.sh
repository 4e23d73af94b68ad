#!/bin/sh
# What binds each lab's solution (issue 53's table: the solution's share of its limit, and why not more), on
# this machine's GPU, alone (a benchmark, not a test):
#   sh tests/solution_limits.sh [CSV [LAB...]]    CSV default output/labs/solution_limits.csv; LAB: all of LABS
# Every solution graded by make labs SOLUTIONS=1 with LAB_PROFILE=1: after its speed step, Nsight Compute's
# shares of the solution's kernels at the timed size (labs/steps/counters.sh, step_profile), then one row a
# timed lab:
#   lab,time_ms,percent_of_limit,limit,dram,l2,l1,sm,warps
# dram ... sm: the share of its peak that DRAM, L2, L1 and shared memory, and the SMs' busiest pipe reached,
# warps: the warps resident, of the most the SMs hold; each the mean over the kernels weighed by their time,
# in whole percent ("-": ncu gave none). One near 100 is what binds the solution; none near, latency.
# The first line names the GPU. Needs ncu that may read the GPU's counters (labs/README.md, step 4).
set -u
cd "$(dirname "$0")/.." || exit 2
. labs/csv.sh
csv=${1:-output/labs/solution_limits.csv}
[ $# -gt 0 ] && shift
labs=${*:-$(make -s --no-print-directory lab-list)}
csv_refuse "$csv"
nvidia-smi -L >/dev/null 2>&1 || { echo "tests/solution_limits.sh: no GPU here: nothing to measure" >&2; exit 77; }
LAB_PROFILE=1 make -s labs SOLUTIONS=1 LABS="$labs" >output/labs/solution_limits.log 2>&1
echo "make labs SOLUTIONS=1 LAB_PROFILE=1: exit $? (output/labs/solution_limits.log)"
reports=""
for lab in $labs; do reports="$reports output/labs/reports/$lab.txt"; done
# shellcheck disable=SC2086  # (the reports' paths, one word each)
{ echo "# device: $(csv_device $reports), $(date -u '+%Y-%m-%d %H:%M') UTC, tests/solution_limits.sh"
  echo "lab,time_ms,percent_of_limit,limit,dram,l2,l1,sm,warps"
  for lab in $labs; do
      r=output/labs/reports/$lab.txt
      [ -f "$r" ] && [ "$(csv_field "$r" time-ms)" != - ] && [ -n "$(csv_field "$r" time-ms)" ] || continue
      set -- $(csv_field "$r" profile)  # dram D l2 L l1 L sm S warps W
      printf '%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$lab" "$(csv_field "$r" time-ms)" "$(csv_field "$r" percent-of-limit)" \
          "$(csv_field "$r" limit)" "${2:--}" "${4:--}" "${6:--}" "${8:--}" "${10:--}"
  done; } | csv_write "$csv"
