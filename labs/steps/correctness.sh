# labs/steps/correctness.sh: step 1 of labs/grade (sourced): the judge's sizes, with the sanitizer's tools
# started beside it where the machine allows (labs/steps/sanitizer.sh), and its verdict.
correctness() {  # prints what step 1 says while it runs; its exit status goes to $tmp/check.code
    # A lab of several processes (rules.txt: "LAB ranks 1 2") runs under mpirun with each count of ranks
    # that this machine has the GPUs for; the others are said skipped.
    ranks=$(awk -v l="$lab" '!/^[[:space:]]*#/ && $1 == l && $2 == "ranks" { $1 = $2 = ""; print }' "$rules")
    if [ -z "$ranks" ]; then
        judge_run "$tmp/check" check -- "$runner"
        echo $? >"$tmp/check.code"
        return
    fi
    mpirun=$(setting mpirun)
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
        visible=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
        [ "$visible" -lt "$gpus" ] && gpus=$visible
    fi
    code=0 ran=0
    : >"$tmp/check"
    for r in $ranks; do
        if [ "$r" -gt "$gpus" ] && [ "$ran" -gt 0 ]; then
            echo "  mpirun -np $r: skipped, it needs $r GPUs and this machine has $gpus"
            echo "judge-skipped -np $r" >>"$tmp/check"
            continue
        fi
        echo "  mpirun -np $r:"
        judge_run "$tmp/check.$r" check --ranks "$r" -- "$mpirun" -np "$r" "$runner"
        c=$?
        [ $code != 0 ] || code=$c
        ran=$((ran + 1))
        cat "$tmp/check.$r" >>"$tmp/check"
        [ $c = 0 ] || break
    done
    echo $code >"$tmp/check.code"
}

# Steps 1 and 2 run side by side, each program in a process of its own, when the machine has a CPU for
# each of their judges (a judge spins while it waits on the GPU): step 1's and one a tool, four for the
# three tools, five where the lab adds initcheck; and the lab's step 1 times nothing (rules.txt "LAB steps
# alone"); else step 1 first, then the tools (LAB_SERIAL=1: one after another). The reports are read in
# order, step 1's first.
step_correctness() {
    export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}  # (a lab of several ranks runs under mpirun)
    export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
    beside=yes
    judges=$(($(echo $tools | wc -w) + 1))
    [ "${LAB_SERIAL:-0}" != 1 ] && [ -n "$tools" ] && [ "$(nproc 2>/dev/null || echo 1)" -ge $judges ] &&
        [ -z "$(rules_for steps | awk -F"$tab" '$1 == "alone"')" ] || beside=no
    if [ $beside = yes ]; then
        correctness >"$tmp/step1" &
        run_tools
    else
        correctness >"$tmp/step1"
    fi
    rules_verdict  # (the file's rules, read meanwhile: a refusal is the grade, before step 1 says anything)
    echo "1. Correctness (inputs drawn afresh for every call from a secret seed: the report ends with it)"
    code=$(cat "$tmp/check.code" 2>/dev/null || echo 1)
    cat "$tmp/step1"
    gpu_refused "$tmp/check" && { shown "$tmp/check"; grade "$busy" 4; }
    if [ $code = 77 ]; then
        shown "$tmp/check"
        echo "no GPU here: the file was built and follows the lab's rules; it was not run"
        grade "not run (no GPU)" 77
    fi
    : >"$tmp/ran"  # (the judge ran the file, or tried to: the report ends with the seed)
    if [ -n "$sandbox_why" ]; then  # (the runner never started: it runs in a sandbox or nowhere)
        echo "  the file was not run: $sandbox_why; the grade runs a student's code in a sandbox only."
        echo "  Install it: $sandbox_how; or, on a machine of your own, LAB_SANDBOX=none grades without one."
        grade "NOT GRADED (no sandbox here: $sandbox_why)" 4
    fi
    if [ $code = 78 ]; then  # a GPU without what the lab needs (tensor cores, a second GPU, ...)
        shown "$tmp/check"
        grade "not run ($(field cannot-run "$tmp/check"))" 77
    fi
    shown "$tmp/check"
    sed -n 's/^\(device [0-9]*: .*\)/grade-device \1/p' "$tmp/check" | head -n 1 >"$tmp/device"
    if ! grep -q '^judge-started' "$tmp/check"; then  # the judge did not get as far as its first line
        echo "  the judge could not start on this GPU (exit $code): $(tail -n 1 "$tmp/check")"
        grade "NOT GRADED (the judge could not use the GPU: try again)" 4
    fi
    failure=$(field failure "$tmp/check")
    correct=no
    [ $code = 0 ] && [ "$(field correct "$tmp/check")" = yes ] && correct=yes
    case $failure in
        timeout*) why=$(field timeout-why "$tmp/check")  # (the judge's cause, where it knows one)
                  grade "FAIL (over $timeout_s s: ${why:-a kernel that never ends?})" 1 no ;;
        cuda) wrong="CUDA error" ;;
        crash) wrong="crash" ;;
        runner) wrong="the runner could not run it" ;;
        *) wrong="wrong result"
           [ $code = 0 ] || [ $code = 1 ] ||
               { wrong="the judge stopped (exit $code)"; tail -n 3 "$tmp/check" | sed 's/^/  /'; } ;;
    esac

}
