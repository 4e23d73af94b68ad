#!/bin/sh
# labs/grade without a GPU (any GPU hidden), quickly: its command line, and what its build step
# (labs/steps/build.sh) and its report say of a file that builds, breaks a rule, does not compile, lacks
# the lab's function, or changes kernels that are given; each grade's exit status is its verdict's. The
# files are the course's and tests/cheats/'s, and one written under output/test/grade/ the same each
# time: a file's build is kept by its path and checksum, so that after the first run each grade takes
# seconds (tests/mutants.sh runs this test on every change it plants in labs/grade and its build step).
# tests/labs.t grades every lab's files, and on a GPU runs them.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)" ]; then
    skip_all "no cuobjdump: labs/grade cannot read a file's machine code (sh tests/install_tools.sh fetches it)"
fi
# (a GPU is hidden from the grades, so that they say the same on a machine with one: tests/labs.t runs them)
CUDA_VISIBLE_DEVICES=
export CUDA_VISIBLE_DEVICES
grade() {  # grade LAB [FILE]: labs/grade's report in $tmp/out, its exit status in $code
    sh labs/grade "$@" >"$tmp/out" 2>&1 </dev/null
    code=$?
}
field() { sed -n "s/^grade-$1 //p" "$tmp/out"; }
said() { grep -q -F -- "$1" "$tmp/out"; }
tail_of() { echo "exit $code; $(tail -n 12 "$tmp/out")"; }

# ==== The command line: exit 2, said, nothing built ====
grade; [ $code = 2 ] && said "usage: sh labs/grade LAB [FILE]" && said "the labs: ch1_block_index "
ok $? "no lab: exit 2, the usage and the labs" "$(tail_of)"
grade ch1_map labs/ch1_map.cu extra; [ $code = 2 ] && said "usage:"; ok $? "three arguments: exit 2" "$(tail_of)"
grade Ch1_map; [ $code = 2 ] && said "'Ch1_map' is not a lab's name"; ok $? "a name with a capital: exit 2" "$(tail_of)"
grade ch1_nothing; [ $code = 2 ] && said "there is no lab ch1_nothing"; ok $? "no such lab: exit 2" "$(tail_of)"
grade ch1_map "$tmp/none.cu"; [ $code = 2 ] && said "$tmp/none.cu: no such file"
ok $? "no such file: exit 2" "$(tail_of)"
grade ch1_map "$tmp"; [ $code = 2 ] && said "$tmp: is a folder"; ok $? "a folder: exit 2" "$(tail_of)"
mkfifo "$tmp/fifo.cu"; grade ch1_map "$tmp/fifo.cu"; [ $code = 2 ] && said "$tmp/fifo.cu: not a readable file"
ok $? "a FIFO: exit 2, not a readable file (never read)" "$(tail_of)"
grade ch1_map "~nobody/x.cu"; [ $code = 2 ] && said "~user is not expanded"
ok $? "FILE=~user/...: exit 2" "$(tail_of)"
mkdir -p "$tmp/a
b" && cp labs/ch1_map.cu "$tmp/a
b/x.cu"
grade ch1_map "$tmp/a
b/x.cu"; [ $code = 2 ] && said "a line break in it"; ok $? "a FILE with a line break: exit 2" "$(tail_of)"
for setting in LAB_TIMEOUT=0 LAB_TIMEOUT=5s TARGET=7x SEED=12a; do
    env "$setting" sh labs/grade ch1_map >"$tmp/out" 2>&1 </dev/null; code=$?
    [ $code = 2 ] && said "${setting%%=*}='${setting#*=}'"; ok $? "$setting: exit 2, named" "$(tail_of)"
done

# ==== Built and checked, not run (no GPU): exit 77 ====
SEED=4242 sh labs/grade ch1_map labs/ch1_map.cu >"$tmp/out" 2>&1 </dev/null; code=$?
sum=$(sha256sum <labs/ch1_map.cu | cut -c1-64)
[ $code = 77 ] && [ "$(field verdict)" = "not run (no GPU)" ] && [ "$(field exit)" = 77 ] &&
    [ "$(head -n 1 "$tmp/out")" = "== Lab ch1_map: $PWD/labs/ch1_map.cu (sha256 $sum)" ] &&
    [ "$(field lab)" = ch1_map ] && [ "$(field file)" = "$PWD/labs/ch1_map.cu" ] && [ "$(field sha256)" = "$sum" ] &&
    [ "$(field seed)" = 4242 ] && [ "$(field correct)" = - ] && [ "$(field speed)" = - ] &&
    said "no GPU here: the file was built and follows the lab's rules; it was not run" &&
    said "verdict: not run (no GPU)" && ! said "grade-sandbox" &&
    field step-seconds | grep -q -E '^build [0-9]+\.[0-9]{2} waiting [0-9]+\.[0-9]{2} correctness [0-9]+\.[0-9]{2}$'
ok $? "the hand-out without a GPU: exit 77, not run (no GPU), the report's lines" "$(tail_of)"
# A grade that shares a GPU (LAB_GPU_LOCK: make labs, labs/gradebook) waits for its lock before the steps
# on the GPU: another grade holds it alone here, and this one waits, holding the gate (labs/steps/run.sh's
# gpu_lock), until the other lets go. (tests/gpu_lock.t tests the lock itself.)
if command -v flock >/dev/null 2>&1; then
    flock -x "$tmp/gpu" sh -c 'while [ ! -f "$0" ]; do sleep 0.1; done' "$tmp/release" &
    holder=$!
    LAB_GPU_LOCK=$tmp/gpu sh labs/grade ch1_map labs/ch1_map.cu >"$tmp/out" 2>&1 </dev/null &
    graded=$! waited=no k=0
    while [ $k -lt 900 ] && kill -0 $graded 2>/dev/null; do
        flock -n "$tmp/gpu.gate" true || { waited=yes; break; }
        sleep 0.1; k=$((k + 1))
    done
    touch "$tmp/release"; wait $graded; code=$?; wait $holder
    [ $waited = yes ] && [ $code = 77 ]
    ok $? "LAB_GPU_LOCK held by another grade: this one waits for it before its steps on the GPU" \
        "waited: $waited; $(tail_of)"
else
    skip "LAB_GPU_LOCK held by another grade: this one waits" "no flock (util-linux) here"
fi
LAB_BUILD_ONLY=1 sh labs/grade ch1_map labs/solutions/ch1_map.cu >"$tmp/out" 2>&1 </dev/null; code=$?
[ $code = 77 ] && [ "$(field verdict)" = "not run (built only: LAB_BUILD_ONLY=1)" ] &&
    field step-seconds | grep -q -E '^build [0-9]+\.[0-9]{2}$' && ! said "1. Correctness"
ok $? "LAB_BUILD_ONLY=1: exit 77, built only, no step after the build" "$(tail_of)"
LAB_SANDBOX=none sh labs/grade ch1_map >"$tmp/out" 2>&1 </dev/null; code=$?
[ $code = 77 ] && [ "$(field sandbox)" = none ]; ok $? "LAB_SANDBOX=none: the report says so" "$(tail_of)"
# A lab that links a library this machine has (rules.txt "ch3_halo link mpi"): compiled and linked with the
# flags make gives for it (mpi.h is found through them), built, exit 77.
if make -s --no-print-directory lab-flags-mpi 2>/dev/null | grep -q '^link: *[^ ]'; then
    LAB_BUILD_ONLY=1 sh labs/grade ch3_halo labs/solutions/ch3_halo.cu >"$tmp/out" 2>&1 </dev/null; code=$?
    [ $code = 77 ] && [ "$(field verdict)" = "not run (built only: LAB_BUILD_ONLY=1)" ]
    ok $? "ch3_halo's solution, with MPI's flags from make: built, exit 77" "$(tail_of)"
else
    skip "a lab built with its library's flags" "no MPI here (ch3_halo)"
fi

# ==== Refused at the build: exit 1, its reason ====
grade ch1_map tests/cheats/ch1_map.on_the_cpu.cu
[ $code = 1 ] && [ "$(field verdict)" = "FAIL (rule: no copies between the host and the GPU)" ] &&
    said "0. The lab's rules (labs/rules.txt)" && said "(it calls cudaMemcpy)" && [ "$(field exit)" = 1 ] &&
    ! said "1. Correctness"
ok $? "a rule broken: FAIL (rule: ...), the rules' heading and what was found, and nothing of step 1" "$(tail_of)"
grep -l -F 'ch1_map.syntax_error.cu' output/labs/build/.ch1_map.*/ch1_map.cu >"$tmp/left_before" 2>/dev/null
grade ch1_map tests/cheats/ch1_map.syntax_error.cu
[ $code = 1 ] && [ "$(field verdict)" = "FAIL (does not compile)" ] && said "0. Build" &&
    said "ch1_map.syntax_error.cu(5): error" && said "does not compile: the first error above names its line"
ok $? "a file that does not compile: FAIL (does not compile), the compiler's error and its line" "$(tail_of)"
# (its own folder, told by the file it holds: a grade of another ch1_map file beside this test, as tests/labs.t's
# on a GPU, may have a folder of its own there at this moment; one a killed grade left before is not this one's)
grep -l -F 'ch1_map.syntax_error.cu' output/labs/build/.ch1_map.*/ch1_map.cu 2>/dev/null |
    grep -v -x -F -f "$tmp/left_before" >"$tmp/left"
[ ! -s "$tmp/left" ]; ok $? "the failed compile's folder is gone" "$(cat "$tmp/left")"
grade ch2_block_sum tests/cheats/ch2_block_sum.cub.cu
[ $code = 1 ] && field verdict | grep -q -F "FAIL (rule: no CUB"
ok $? "a header refused (CUB): FAIL (rule)" "$(tail_of)"
grade ch3_graph tests/cheats/ch3_graph.fused.cu
[ $code = 1 ] && field verdict | grep -q -F "FAIL (rule: the kernels are given, unchanged, and no others"
ok $? "ch3_graph's given kernels changed: FAIL (rule), read against the hand-out" "$(tail_of)"
# A file without the lab's function (its launch function renamed), written the same each run.
mkdir -p output/test/grade
sed 's/^void lab_saxpy(/void lab_saxpy_renamed(/' labs/solutions/ch1_map.cu >output/test/grade/ch1_map.renamed.cu
grade ch1_map output/test/grade/ch1_map.renamed.cu
[ $code = 1 ] && [ "$(field verdict)" = "FAIL (the lab's function is missing or has other parameters)" ] &&
    said "the runner calls lab_saxpy with the parameters the statement gives" && said "undefined reference to"
ok $? "the lab's function missing: FAIL, naming the function the runner calls" "$(tail_of)"
ls output/labs/build/ch1_map-*/runner.[0-9]* >"$tmp/left" 2>/dev/null
[ ! -s "$tmp/left" ]; ok $? "the failed link's runner is gone" "$(cat "$tmp/left")"
# The rules that cannot be read (a cuobjdump that fails: the course's side, never the file's grade): exit 2,
# said, whether they were read beside steps 1 and 2 (a whole grade) or before the end (LAB_BUILD_ONLY=1).
printf '#!/bin/sh\necho "cuobjdump fatal: made to fail" >&2\nexit 1\n' >"$tmp/cuobjdump" && chmod +x "$tmp/cuobjdump"
LAB_CUOBJDUMP=$tmp/cuobjdump grade ch1_map labs/solutions/ch1_map.cu
[ $code = 2 ] && said "the lab's rules could not be checked (labs/rules.sh)" && ! said "verdict:"
ok $? "the rules that cannot be read, in a whole grade: exit 2, said, no verdict" "$(tail_of)"
LAB_BUILD_ONLY=1 LAB_CUOBJDUMP=$tmp/cuobjdump grade ch1_map labs/solutions/ch1_map.cu
[ $code = 2 ] && said "the lab's rules could not be checked (labs/rules.sh)" && ! said "verdict:"
ok $? "the same, LAB_BUILD_ONLY=1: exit 2" "$(tail_of)"
# ... and rules whose reading hangs (a cuobjdump stuck on a file) are stopped after LAB_TIMEOUT: exit 2, said.
printf '#!/bin/sh\nsleep 30\n' >"$tmp/cuobjdump" && chmod +x "$tmp/cuobjdump"
real=$(make -s --no-print-directory lab-cuobjdump)  # (rules.sh wants nvdisasm beside it, or on PATH)
ln -sf "$(PATH=$(dirname "$real"):$PATH command -v nvdisasm)" "$tmp/nvdisasm"
LAB_TIMEOUT=3 LAB_BUILD_ONLY=1 LAB_CUOBJDUMP=$tmp/cuobjdump grade ch1_map labs/solutions/ch1_map.cu
[ $code = 2 ] && said "labs/rules.sh: stopped after 3 s (LAB_TIMEOUT)" && ! said "verdict:"
ok $? "rules whose reading hangs: stopped after LAB_TIMEOUT, exit 2, said" "$(tail_of)"
# A rule broken is the grade wherever the grade stops before step 1: at a failed link (the rules read beside
# it), and with LAB_BUILD_ONLY=1 (make labs, labs/gradebook: a build-only book without a GPU).
sed 's/^void lab_saxpy(/void lab_saxpy_renamed(/' tests/cheats/ch1_map.on_the_cpu.cu \
    >output/test/grade/ch1_map.renamed_cpu.cu
grade ch1_map output/test/grade/ch1_map.renamed_cpu.cu
[ $code = 1 ] && [ "$(field verdict)" = "FAIL (rule: no copies between the host and the GPU)" ]
ok $? "a rule broken and the lab's function missing: FAIL (rule), the rules' finding first" "$(tail_of)"
LAB_BUILD_ONLY=1 sh labs/grade ch1_map tests/cheats/ch1_map.on_the_cpu.cu >"$tmp/out" 2>&1 </dev/null; code=$?
[ $code = 1 ] && [ "$(field verdict)" = "FAIL (rule: no copies between the host and the GPU)" ]
ok $? "LAB_BUILD_ONLY=1, a rule broken: FAIL (rule), exit 1, never 77" "$(tail_of)"

# ==== The rules read beside steps 1 and 2 (labs/steps/build.sh, run.sh: sourced here, their parts alone) ====
# No code of the file's runs while its rules are read: a runner that filled the disk or the memory meanwhile
# would have them read wrong or not at all. A stand-in judge starts a stand-in runner as judge_run does;
# the rules' finding comes 2 s after (a stand-in for their reading, its process's id kept as build keeps it).
beside() {  # beside SCRIPT: SCRIPT run with labs/steps' run.sh and build.sh sourced for ch1_map (no sandbox);
    # its output in $tmp/out, its exit status in $code (124: it hung, and was stopped after 120 s)
    timeout -k 5 120 env lab=ch1_map root="$PWD" tmp="$tmp/beside" seed=1 pick=1 timeout_s=30 LAB_SANDBOX=none \
        sh -c 'set -u; rm -rf "$tmp" && mkdir -p "$tmp" || exit 9
               grade() { echo "verdict: $1"; exit "$2"; }
               . labs/steps/run.sh && . labs/steps/build.sh && eval "$1"' beside "$1" >"$tmp/out" 2>&1 </dev/null
    code=$?
}
printf '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n' >"$tmp/judge"
printf '#!/bin/sh\n[ -f "$1" ] && echo "the runner ran after the finding" || echo "the runner ran before it"\n' \
    >"$tmp/runner"
chmod +x "$tmp/judge" "$tmp/runner"
beside 'judge='"$tmp/judge"'; at=$tmp/rules.k; echo "$at" >"$tmp/rules.beside"
    sh -c "sleep 2; echo 0 >\"\$0.status\"" "$at" & echo $! >"$at.pid"
    judge_run "$tmp/report" check -- '"$tmp/runner"' "$at.status"; cat "$tmp/report"'
[ $code = 0 ] && said "the runner ran after the finding"
ok $? "rules read beside: the runner starts once their finding is in, not before" "$(tail_of)"
# The finding lost (the reading's process gone without one; "refused" with no refusal written): read again
# when the grade needs it, the runner ended: a refusal is the grade still, and nothing waits forever.
lost='file=$PWD/tests/cheats/ch1_map.on_the_cpu.cu; cp "$file" "$tmp/copy.cu"; sum=$(sha256sum <"$file" | cut -c1-64)
    runner=$(build "$tmp/copy.cu" "$file" "$sum" beside); at=$(sed -n 1p "$tmp/rules.beside")
    while [ ! -f "$at.status" ]; do sleep 0.1; done'
beside "$lost"'; rm "$at.status"; sh -c "exit 0" & wait $!; echo $! >"$at.pid"; rules_verdict; echo clean'
[ $code = 1 ] && said "verdict: FAIL (rule: no copies between the host and the GPU)" && said "(it calls cudaMemcpy)"
ok $? "rules read beside, their process gone without a finding: read again, FAIL (rule), no wait forever" \
    "$(tail_of)"
beside "$lost"'; echo 1 >"$at.status"; : >"$at.refusals"; rules_verdict; echo clean'
[ $code = 1 ] && said "verdict: FAIL (rule: no copies between the host and the GPU)"
ok $? "rules read beside, 'refused' with no refusal written (a full disk): read again, FAIL (rule), not clean" \
    "$(tail_of)"

# ==== A lab whose library this machine lacks: not run, exit 77, before any build ====
lib=$(for l in nccl mpi; do make -s --no-print-directory "lab-flags-$l" 2>/dev/null | grep -q '^link: *[^ ]' ||
      { echo "$l"; break; }; done)
if [ -n "$lib" ]; then
    lab=$([ "$lib" = nccl ] && echo ch3_allreduce || echo ch3_halo)
    grade "$lab"
    [ $code = 77 ] && [ "$(field verdict)" = "not run (no $lib here)" ] &&
        said "$lab needs $lib, which make did not find" && said "0. Build" && grep -q "^  make: no " "$tmp/out"
    ok $? "$lab without $lib: exit 77, not run (no $lib here)" "$(tail_of)"
else
    skip "a lab whose library is missing" "NCCL and MPI are both here"
fi

# ==== Step 2's tools, from the lab's rules.txt line (labs/steps/sanitizer.sh, sourced alone) ====
# No line: memcheck, racecheck and synccheck, named as they run; "sanitize memcheck" (ch3_allreduce's
# form): memcheck only, and why; ch4_debug_init's line: initcheck too, on the sizes memcheck takes, and
# why; a tool of another name: exit 2, before anything runs.
tools_for() {  # tools_for "LAB sanitize TOOLS REASON" ("": no line): the tools, then say_tools's lines, in $tmp/out
    (rule=$1 lab=ch9_test tab=$(printf '\t')
     rules_for() { [ "$1" != sanitize ] || [ -z "$rule" ] ||
                   echo "$rule" | awk '{ s = ""; for (i = 4; i <= NF; i++) s = s (i > 4 ? " " : "") $i
                                         print $3 "\t" s }'; }
     setting() { echo /nonexistent; }
     . labs/steps/sanitizer.sh
     echo "tools: $lab_tools"
     say_tools) >"$tmp/out" 2>&1
    code=$?
}
heading="2. compute-sanitizer: memcheck and synccheck on the small sizes and one larger size drawn for this grade,"
tools_for ""
[ $code = 0 ] && [ "$(cat "$tmp/out")" = "tools: memcheck racecheck synccheck
$heading racecheck on the small sizes" ]
ok $? "step 2 without a sanitize line: memcheck, racecheck and synccheck, named as they run" "$(tail_of)"
tools_for "ch9_test sanitize memcheck its kernels are a library's"
[ $code = 0 ] && [ "$(cat "$tmp/out")" = "tools: memcheck
2. compute-sanitizer: memcheck on the small sizes and one larger size drawn for this grade
  memcheck only: its kernels are a library's" ]
ok $? "step 2 with \"sanitize memcheck\": memcheck only, and why" "$(tail_of)"
tools_for "$(awk '$1 == "ch4_debug_init" && $2 == "sanitize"' labs/rules.txt)"
heading="2. compute-sanitizer: memcheck, synccheck and initcheck on the small sizes and one larger size drawn for"
[ $code = 0 ] && [ "$(sed -n 1p "$tmp/out")" = "tools: memcheck racecheck synccheck initcheck" ] &&
    [ "$(sed -n 2p "$tmp/out")" = "$heading this grade, racecheck on the small sizes" ] &&
    sed -n 3p "$tmp/out" | grep -q '^  initcheck too: the lab.s bug is a read of memory that nothing wrote'
ok $? "ch4_debug_init's rules.txt line: initcheck too, on the sizes memcheck takes, and why" "$(tail_of)"
tools_for "ch9_test sanitize memcheck,initchek a typo"
[ $code = 2 ] && said "rules.txt: 'ch9_test sanitize initchek'?"
ok $? "a sanitize line naming no tool of compute-sanitizer's: exit 2, named" "$(tail_of)"
# make lab-mistakes REPORT=R (labs/mistakes.sh) grades the mistakes of that report only: one of none is an
# error before any grade (a stand-in nvidia-smi stands for the GPU that script first asks for).
mkdir -p "$tmp/standin" && printf '#!/bin/sh\necho "GPU 0: a stand-in"\n' >"$tmp/standin/nvidia-smi" &&
    chmod +x "$tmp/standin/nvidia-smi"
PATH=$tmp/standin:$PATH REPORT=no_such_report sh labs/mistakes.sh >"$tmp/out" 2>&1 </dev/null; code=$?
[ $code = 2 ] && said "make lab-mistakes: no mistake planted for report 'no_such_report'"
ok $? "make lab-mistakes REPORT= of no planted mistake: exit 2, said, nothing graded" "$(tail_of)"
done_testing
