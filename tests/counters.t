#!/bin/sh
# labs/grade's step 4 without a GPU (labs/steps/counters.sh, labs/counters.awk, labs/counters.txt): the
# counters of a file that is right but slow, beside the solution's. Nsight Compute is made up here: an ncu
# that writes, for the runner it is given, rows in ncu's CSV form (every field quoted, thousands' commas,
# a kernel name with its own commas, the runner's touch kernel, a counter this GPU lacks), or ncu's error
# for counters kept to administrators. The step runs with judge_run standing in for the judge.
set -u
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$(pwd)

# ==== labs/counters.txt ====
bad=$(awk '!/^[[:space:]]*(#|$)/ && (NF < 4 || $0 !~ / \| [^ ]/) { print FNR ": " $0 }' labs/counters.txt)
[ -z "$bad" ]; ok $? "labs/counters.txt: every line is LAB COUNTER what | lesson" "$bad"
labs=" $(make -s --no-print-directory lab-list) "
unknown=$(awk '!/^[[:space:]]*(#|$)/ { print $1 }' labs/counters.txt | sort -u |
          while read -r l; do case $labs in *" $l "*) ;; *) echo "$l" ;; esac; done)
[ -z "$unknown" ]; ok $? "labs/counters.txt names only labs" "$unknown"
# the bar's two labs: a slow transpose and a slow tiled product say why
grep -q '^ch1_transpose l1tex__data_bank_conflicts' labs/counters.txt && grep -q '^ch5_tiled ' labs/counters.txt
ok $? "ch1_transpose shows its bank conflicts, ch5_tiled its loads"

# ==== labs/counters.awk on ncu's CSV ====
q='"0","4242","runner","host"'
s='"1","7","(32, 8, 1)","(4, 4, 1)","0","9.0","Command line profiler metrics"'
{ echo '==PROF== Connected to process 4242 (/tmp/runner)'
  echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'\
'"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
  echo "$q,\"touch\",$s,\"a.sum\",\"\",\"1,000\""
  echo "$q,\"transpose\",$s,\"a.sum\",\"\",\"1,048,576\""
  echo "$q,\"step(float, int)\",$s,\"a.sum\",\"\",\"24\""
  echo "$q,\"transpose\",$s,\"b.sum\",\"\",\"n/a\""
  echo "$q,\"transpose\",$s,\"c.pct\",\"%\",\"12.5\""
  echo 'the runner printed this'
  echo '==PROF== Disconnected from process 4242'
} >"$tmp/ncu.csv"
awk -f labs/counters.awk "$tmp/ncu.csv" >"$tmp/sums"
[ "$(cat "$tmp/sums")" = "$(printf 'a.sum 1048600\nc.pct 12.5')" ]
ok $? "counters.awk: each counter summed over the kernels but the runner's touch; n/a left out" "$(cat "$tmp/sums")"

# ==== step 4 with a made-up ncu ====
mkdir -p "$tmp/bin" "$tmp/cuda/bin"
cat >"$tmp/bin/ncu" <<'EOF'
#!/bin/sh
# a made-up ncu: --log-file F gets the CSV of the runner it is given (its last argument)
log=/dev/stdout
while [ $# -gt 1 ]; do [ "$1" = --log-file ] && log=$2; shift; done
case $1 in
    *denied*) echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU" \
                   "Performance Counters on the target device 0." >"$log"; exit 1 ;;
    *silent*) echo "==ERROR== The application returned an error code (1)." >"$log"; exit 1 ;;
    *absent*) echo "cannot start /opt/nvidia/nsight-compute/2025.3.1/ncu: No such file or directory"; exit 1 ;;
    *profiled*)  # (LAB_PROFILE's shares: two kernels of 3 and 1 us, and the runner's touch)
        { echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
          for row in 0,touch,100,0,0 1,copy,3000,90,20 2,tail,1000,10,60; do
              IFS=, read -r id k t d c <<ROW
$row
ROW
              for m in gpu__time_duration.sum:$t dram__throughput.avg.pct_of_peak_sustained_elapsed:$d \
                       sm__throughput.avg.pct_of_peak_sustained_elapsed:$c; do
                  echo "\"$id\",\"$k\",\"${m%%:*}\",\"\",\"${m#*:}\""
              done
          done; } >"$log"; exit 0 ;;
    *solution*) n=0 ;;
    *) n=1,048,576 ;;
esac
{ echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Metric Name","Metric Unit","Metric Value"'
  for op in ld st; do
      m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum
      echo "\"0\",\"1\",\"runner\",\"h\",\"transpose\",\"$m\",\"\",\"$n\""
  done; } >"$log"
EOF
chmod +x "$tmp/bin/ncu"
judge_run() {  # judge_run OUT KIND [OPTIONS] -- COMMAND...: the command alone, its output in OUT
    judge_out=$1; shift 2
    while [ "$1" != -- ]; do shift; done
    shift
    "$@" >"$judge_out" 2>&1
}
build_solution() { echo "$tmp/solution-runner"; }
. labs/steps/counters.sh
ncu_installs=$tmp/opt  # (not this machine's /opt/nvidia/nsight-compute: each test names its ncu)
lab=ch1_transpose cuda_dir=$tmp/cuda solution_file=labs/solutions/ch1_transpose.cu solution_runner=""
step() { (runner=$1; step_counters) >"$tmp/out" 2>&1; }
LAB_NCU=$tmp/bin/ncu step "$tmp/file-runner"
said() { grep -q -F -- "$1" "$tmp/out"; }
said "4. Counters" && grep -q "^  *yours  *the solution$" "$tmp/out" &&
    said "shared loads' bank conflicts" && grep -q "bank conflicts  *1048576  *0$" "$tmp/out" &&
    said "what it points at: a column of a TILE x TILE tile" && [ "$(grep -c 'what it points at' "$tmp/out")" = 1 ]
ok $? "a slow transpose: its bank conflicts beside the solution's, and the lesson once" "$(cat "$tmp/out")"
LAB_NCU=$tmp/bin/ncu step "$tmp/denied-runner"
said "not measured: ncu may not read this GPU's counters here (ERR_NVGPUCTRPERM" &&
    said "NVreg_RestrictProfilingToAdminUsers=0 opens them); the grade is the same" && ! said "yours" &&
    ! said "gave no counters"
ok $? "counters kept to administrators: said so, and nothing else" "$(cat "$tmp/out")"
LAB_NCU=$tmp/bin/ncu step "$tmp/silent-runner"
said "not measured: ncu gave no counters for the file's kernels (==ERROR== The application returned" &&
    ! said "yours"
ok $? "no counters from ncu: said so, with its error" "$(cat "$tmp/out")"
# (a tool the sandbox could not start writes no log: the judge's relay of its words says why)
LAB_NCU=$tmp/bin/ncu step "$tmp/absent-runner"
said "gave no counters for the file's kernels (cannot start /opt/nvidia/nsight-compute/2025.3.1/ncu: No such" &&
    ! said "yours"
ok $? "ncu that did not start: said so, with the words of the run" "$(cat "$tmp/out")"
(PATH=/usr/bin:/bin; LAB_NCU="" step "$tmp/file-runner")
said "not measured: no ncu here" && [ "$(wc -l <"$tmp/out")" = 2 ]; ok $? "no ncu: said so" "$(cat "$tmp/out")"
cp "$tmp/bin/ncu" "$tmp/cuda/bin/ncu"
(PATH=/usr/bin:/bin; LAB_NCU="" step "$tmp/file-runner")
grep -q "1048576" "$tmp/out"; ok $? "the toolkit's ncu ($cuda_dir/bin/ncu) is found without LAB_NCU" "$(cat "$tmp/out")"
# Nsight Compute's own ncu before the toolkit's launcher (which, in the sandbox, would not find it): the newest
# of those beside the toolkit and under /opt/nvidia/nsight-compute (here made up under $tmp/opt)
for v in "$tmp/cuda/nsight-compute-2025.3.1" "$tmp/opt/2025.10.2" "$tmp/opt/2025.9.0"; do
    mkdir -p "$v" && printf '#!/bin/sh\n' >"$v/ncu" && chmod +x "$v/ncu"
done
[ "$(LAB_NCU="" counters_ncu)" = "$tmp/opt/2025.10.2/ncu" ]
ok $? "Nsight Compute's own ncu, the newest version, before the toolkit's launcher" "$(LAB_NCU="" counters_ncu)"
LAB_COUNTERS=0 LAB_NCU=$tmp/bin/ncu step "$tmp/file-runner"
[ ! -s "$tmp/out" ]; ok $? "LAB_COUNTERS=0: no step 4" "$(cat "$tmp/out")"
lab=ch1_map
LAB_NCU=$tmp/bin/ncu step "$tmp/file-runner"
[ ! -s "$tmp/out" ]; ok $? "a lab without counters: no step 4" "$(cat "$tmp/out")"
lab=ch1_transpose solution_file=$tmp/none.cu
LAB_NCU=$tmp/bin/ncu step "$tmp/file-runner"
grep -q "bank conflicts  *1048576 *$" "$tmp/out"; ok $? "a hand-out (no solution): the file's figures alone" \
    "$(cat "$tmp/out")"

# ==== LAB_PROFILE=1: what binds it, each share the kernels' mean weighed by their time ====
step_mark() { :; }
profile() { rm -f "$tmp/profile.line"; (runner=$1; step_profile) >"$tmp/out" 2>&1; }
LAB_NCU=$tmp/bin/ncu profile "$tmp/profiled-runner"
[ ! -s "$tmp/out" ]; ok $? "no LAB_PROFILE: no profile" "$(cat "$tmp/out")"
LAB_PROFILE=1 LAB_NCU=$tmp/bin/ncu profile "$tmp/profiled-runner"
said "the profiled kernels' time: 4.0 us" && said "DRAM 70%, L2 -%" && said "busiest pipe 30%" &&
    [ "$(cat "$tmp/profile.line")" = "grade-profile dram 70 l2 - l1 - sm 30 warps -" ]
ok $? "LAB_PROFILE=1: the shares weighed by each kernel's time, the touch left out; grade-profile" \
    "$(cat "$tmp/out" "$tmp/profile.line")"
LAB_PROFILE=1 LAB_NCU=$tmp/bin/ncu profile "$tmp/denied-runner"
said "not measured: ncu gave no figures (==ERROR== ERR_NVGPUCTRPERM" && [ ! -s "$tmp/profile.line" ]
ok $? "LAB_PROFILE=1, counters kept to administrators: said so, no grade-profile" "$(cat "$tmp/out")"
done_testing
