#!/bin/sh
# GitHub Classroom's workflow (labs/README.md, "GitHub Classroom"): .github/workflows/classroom.yml is what
# make classroom writes for the Makefile's LABS; actionlint passes on it; it uses the two actions as they
# are (labs/classroom.sh says where that comes from): a grader step a lab, in LABS' order, running sh
# labs/grade LAB labs/LAB.cu, and the reporter last, given every step's result by its id; the hand-out
# (make labs-handout), which is Classroom's template, holds it; and its commands, run in order on a
# hand-out with only PATH and HOME as the grader gives them, give each lab's exit status (without a GPU,
# 77: not run; those of three labs, each a compile: the first and the two that link MPI and NCCL). make
# runner-check says what a grade lacks, and exits 1 where something is missing (without a GPU: "no GPU").
. tests/tap.sh
[ -n "${LABS:-}" ] && [ -n "${CLASSROOM_RUNS_ON:-}" ] ||
    { echo "Bail out! LABS or CLASSROOM_RUNS_ON is empty: run through 'make test'"; exit 1; }
unset MAKEFLAGS MFLAGS MAKELEVEL  # (the hand-out's make is a top-level one, as on the runner)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
workflow=.github/workflows/classroom.yml

sh labs/classroom.sh "$CLASSROOM_RUNS_ON" $LABS >"$tmp/made.yml" && cmp -s "$tmp/made.yml" "$workflow"
ok $? "$workflow is make classroom's, for every lab of LABS" "$(diff "$workflow" "$tmp/made.yml" | head -n 6)"

# actionlint: on PATH, or tests/install_tools.sh's. The runner's labels other than self-hosted are the
# course's own, told to it (else it knows GitHub's labels alone). It must also catch a planted fault: the
# reporter reading a step that is not there.
lint=$(command -v actionlint || echo "$PWD/.tools/bin/actionlint")
if "$lint" --version >/dev/null 2>&1; then
    labels=$(sed -n 's/^    runs-on: *//p' "$workflow" | tr -d '[]' | tr ',' '\n' | sed 's/^ *//; s/ *$//' |
             grep -v -x -e self-hosted -e '')
    { echo "self-hosted-runner:"; echo "  labels:"; for l in $labels; do echo "    - $l"; done; } >"$tmp/lint.yaml"
    "$lint" -config-file "$tmp/lint.yaml" "$workflow" >"$tmp/lint.out" 2>&1
    ok $? "actionlint passes on $workflow" "$(head -n 6 "$tmp/lint.out")"
    sed 's/steps\.\([a-z0-9_]*\)\.outputs\.result/steps.\1x.outputs.result/' "$workflow" >"$tmp/planted.yml"
    ! "$lint" -config-file "$tmp/lint.yaml" "$tmp/planted.yml" >/dev/null 2>&1
    ok $? "actionlint fails on a copy whose reporter reads steps that are not there"
else
    skip "actionlint passes on $workflow" "no actionlint (sh tests/install_tools.sh fetches it)"
fi

# The steps, as "STEP<tab>KEY<tab>VALUE" lines (with.KEY and env.KEY under with: and env:), read from the
# layout labs/classroom.sh writes: a step opens with "      - ", its keys 8 spaces in, theirs 10.
awk -v OFS='\t' '
    /^      - / { n++; sub(/^      - /, "        ") }
    n && /^        [a-z-]+:/ { section = $1; sub(/:$/, "", section); v = $0; sub(/^ *[^:]*: */, "", v)
                              if (v != "") print n, section, v; next }
    n && /^          [A-Za-z0-9_-]+:/ { k = $1; sub(/:$/, "", k); v = $0; sub(/^ *[^:]*: */, "", v)
                                        print n, section "." k, v }' "$workflow" >"$tmp/steps"
value() { awk -F'\t' -v s="$1" -v k="$2" '$1 == s && $2 == k { print $3 }' "$tmp/steps"; }
grader=classroom-resources/autograding-command-grader@v1
reporter=classroom-resources/autograding-grading-reporter@v1
graders=$(awk -F'\t' -v g="$grader" '$2 == "uses" && $3 == g { print $1 }' "$tmp/steps")
ids=$(for s in $graders; do value "$s" id; done)
[ "$(echo $ids)" = "$(echo $LABS)" ]
ok $? "a grader step a lab, in LABS' order, its id the lab's name" "ids: $(echo $ids)"
# The grader's inputs (its action.yml): test-name and command, timeout in minutes (at most 6 hours) and
# max-score; nothing else reaches it.
for s in $graders; do
    id=$(value "$s" id)
    awk -F'\t' -v s="$s" '$1 == s && $2 ~ /^with\./ { print $2 }' "$tmp/steps" |
        grep -v -x -e with.test-name -e with.setup-command -e with.command -e with.timeout -e with.max-score |
        sed "s/^/$id: an input the grader does not take: /"
    [ "$(value "$s" with.test-name)" = "$id" ] || echo "$id: test-name is not $id"
    [ "$(value "$s" with.command)" = "sh labs/grade $id labs/$id.cu" ] ||
        echo "$id: command is '$(value "$s" with.command)', not 'sh labs/grade $id labs/$id.cu'"
    value "$s" with.timeout | grep -q -x '[1-9][0-9]*' && [ "$(value "$s" with.timeout)" -le 360 ] ||
        echo "$id: timeout '$(value "$s" with.timeout)' is not whole minutes, from 1 to 360"
    value "$s" with.max-score | grep -q -x '[1-9][0-9]*' || echo "$id: max-score '$(value "$s" with.max-score)'"
done >"$tmp/inputs"
[ ! -s "$tmp/inputs" ]
ok $? "each grader step runs sh labs/grade LAB labs/LAB.cu, with the grader's inputs alone" "$(head -n 5 "$tmp/inputs")"
# The reporter (its action.yml and src/main.js): runners, the ids separated by commas; for each id the
# variable ID_RESULTS (the id in capitals) holding that step's output result. Last, after every grader.
last=$(cut -f1 "$tmp/steps" | tail -n 1)
{
    [ "$(value "$last" uses)" = "$reporter" ] || echo "the last step is not $reporter"
    [ "$(value "$last" with.runners)" = "$(echo $ids | tr ' ' ',')" ] ||
        echo "runners: $(value "$last" with.runners)"
    for id in $ids; do
        want="\"\${{ steps.$id.outputs.result }}\""
        [ "$(value "$last" "env.$(echo "$id" | tr a-z A-Z)_RESULTS")" = "$want" ] ||
            echo "no env $(echo "$id" | tr a-z A-Z)_RESULTS: $want"
    done
    [ "$(awk -F'\t' -v l="$last" '$1 == l && $2 ~ /^env\./' "$tmp/steps" | wc -l)" -eq "$(echo $ids | wc -w)" ] ||
        echo "the reporter is given other variables too"
} >"$tmp/reporter"
[ ! -s "$tmp/reporter" ]
ok $? "the reporter is last, given each step's result as ID_RESULTS and every id in runners" \
    "$(head -n 5 "$tmp/reporter")"

# The hand-out is the template: it holds the workflow (git tracks it) and no solution.
sh labs/handout.sh "$tmp/handout.tar.gz" >"$tmp/handout.log" 2>&1 && tar -xzf "$tmp/handout.tar.gz" -C "$tmp"
h=$tmp/cuda-course
cmp -s "$workflow" "$h/$workflow" && [ ! -e "$h/labs/solutions" ]
ok $? "the hand-out (make labs-handout), Classroom's template, holds $workflow and no solution" \
    "$(cat "$tmp/handout.log")"

# Its commands in order on the hand-out: the run: steps before the first grader (checkout is the hand-out
# itself), then the grader steps of the labs below. The course's side built here comes along (as built,
# dates kept), so that the build step has nothing to do on two CPUs; what it lacks, it builds.
mkdir -p "$h/output/labs"
cp -p .build-flags "$h/" && cp -p common/*.o "$h/common/" && cp -pR output/labs/*.o "$h/output/labs/" &&
    cp -pR output/labs/judge output/labs/runner "$h/output/labs/" 2>/dev/null
# The grader's environment (its src/main.js), and on PATH the cuobjdump and the bwrap the course uses
# here, as a runner has them installed: the hand-out has no .tools/bin (nor has a runner's checkout, which
# removes it). Without the sandbox every grade on a GPU would be NOT GRADED (4), as make runner-check says.
cuobjdump=$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)
bwrap=$(command -v bwrap 2>/dev/null || echo "$PWD/.tools/bin/bwrap")
grader_path=$PATH${cuobjdump:+:$(dirname "$cuobjdump")}
[ ! -x "$bwrap" ] || grader_path=$grader_path:$(dirname "$bwrap")
as_grader() { (cd "$h" && env -i PATH="$grader_path" HOME="$HOME" FORCE_COLOR=true sh -c "$1"); }
first=$(echo $graders | cut -d' ' -f1)
built=0
for s in $(awk -F'\t' -v f="$first" '$1 < f && $2 == "run" { print $1 }' "$tmp/steps" | sort -un); do
    as_grader "$(value "$s" run)" >"$tmp/run.$s" 2>&1 || built=$((built + 1))
done
[ $built = 0 ] && [ -n "$first" ]
ok $? "the steps before the tests run on the hand-out" "$(tail -n 5 "$tmp"/run.* 2>/dev/null)"
linked=$(awk '!/^[[:space:]]*#/ && $2 == "link" && ($3 == "mpi" || $3 == "nccl") { print $1 }' labs/rules.txt)
chosen=" $(echo $LABS | cut -d' ' -f1) $(echo $linked) "
for s in $graders; do
    id=$(value "$s" id)
    case $chosen in *" $id "*) ;; *) continue ;; esac
    if [ ! -x "$cuobjdump" ]; then
        skip "on the hand-out, the step $id gives its grade" "no cuobjdump (sh tests/install_tools.sh fetches NVIDIA's)"
        continue
    fi
    setup=$(value "$s" with.setup-command)
    { [ -z "$setup" ] || as_grader "$setup"; } >"$tmp/$id.out" 2>&1 && as_grader "$(value "$s" with.command)" \
        >>"$tmp/$id.out" 2>&1 </dev/null
    code=$?
    verdict=$(sed -n 's/^grade-verdict //p' "$tmp/$id.out")
    lib=""
    for l in $(awk -v l="$id" '!/^[[:space:]]*#/ && $1 == l && $2 == "link" { print $3 }' labs/rules.txt); do
        as_grader "make -s --no-print-directory lab-flags-$l" 2>/dev/null | grep -q '^link: *[^ ]' || lib=$l
    done
    if [ -n "$lib" ]; then
        want="77, not run (no $lib here)"; [ $code = 77 ] && [ "$verdict" = "not run (no $lib here)" ]
    elif ! have_gpu; then
        want="77, not run (no GPU)"; [ $code = 77 ] && [ "$verdict" = "not run (no GPU)" ]
    else
        want="1, FAIL: the file as handed out"; [ $code = 1 ] && echo "$verdict" | grep -q '^FAIL'
    fi
    ok $? "on the hand-out, the step $id gives its grade: $want" "exit $code; $(grep -v '^grade-' "$tmp/$id.out" |
                                                                          tail -n 6)"
done

# make runner-check's recipe, on this machine: a line a need, and exit 1 where one is missing.
sh labs/runner_check.sh >"$tmp/check" 2>"$tmp/check.err"; code=$?
lines_ok=$(grep -v -c -e '^ok  ' -e '^missing  ' -e '^runner-check: ' "$tmp/check")
if have_gpu; then
    { [ $code = 0 ] && ! grep -q '^missing' "$tmp/check"; } || { [ $code = 1 ] && grep -q '^missing' "$tmp/check"; }
else
    [ $code = 1 ] && grep -q '^missing  GPU: no GPU' "$tmp/check"
fi
[ $? = 0 ] && [ "$lines_ok" = 0 ] && [ ! -s "$tmp/check.err" ]
ok $? "make runner-check: a line a need, exit 1 where one is missing (without a GPU: no GPU)" \
    "exit $code; $(cat "$tmp/check" "$tmp/check.err" | head -n 12)"
# It asks the driver: a GPU that nvidia-smi lists (a stand-in here) is no longer missing.
mkdir -p "$tmp/fake" && printf '#!/bin/sh\necho "Stand-in GPU, 9.0, 580.00"\n' >"$tmp/fake/nvidia-smi" &&
    chmod 755 "$tmp/fake/nvidia-smi"
PATH="$tmp/fake:$PATH" sh labs/runner_check.sh 2>&1 | grep -q '^ok       GPU: Stand-in GPU, compute capability 9.0'
ok $? "make runner-check reads the GPU from nvidia-smi"
done_testing
