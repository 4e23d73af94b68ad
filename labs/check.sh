#!/bin/sh
# Checks one lab: sh labs/check.sh LAB BINARY [SOLUTION_BINARY]   (make lab L=LAB builds them and calls this)
# 1. correctness: the harness at every size, the first wrong element and a hint where one fits;
# 2. compute-sanitizer's memcheck, racecheck and synccheck on the small sizes, one line per finding;
# 3. speed: the median against the course's solution (timed now, on this GPU) and the limit that binds.
# Verdict and exit status: PASS 0; FAIL 1 (a wrong result or a sanitizer finding); PASS but slow 3
# (under TARGET percent of the solution's speed, 70 by default); 77 when there is no GPU.
# LAB_NO_TIME=1 stops after the sanitizer (make test: checks, not timings); LAB_SANITIZE=0 leaves the
# sanitizer out (it is reported as "not run", and the verdict stands on the rest). The last line,
# "lab-summary LAB|correct|sanitizer|time|percent|verdict|share of the limit", is what make labs
# tabulates.
set -u
lab=${1:?usage: labs/check.sh LAB BINARY [SOLUTION_BINARY]}
bin=${2:?usage: labs/check.sh LAB BINARY [SOLUTION_BINARY]}
solution=${3:-}
target=${TARGET:-70}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

summary() {  # correct sanitizer time percent verdict [share of the limit]
    echo "verdict: $5"
    echo "lab-summary $lab|$1|$2|$3|$4|$5|${6:-}"
}

echo "== Lab $lab: $bin"
echo "1. Correctness"
timeout 300 ./"$bin" >"$tmp/check" 2>&1 </dev/null
code=$?
if [ $code = 77 ]; then
    cat "$tmp/check"
    echo "no GPU here: $lab was built, not run"
    summary "-" "-" "-" "-" "not run (no GPU)"
    exit 77
fi
grep -v '^lab-' "$tmp/check"
correct=no
wrong="wrong result"
grep -q '^lab-correct yes' "$tmp/check" && [ $code = 0 ] && correct=yes
if grep -q ' failed: cuda[A-Za-z]*' "$tmp/check"; then
    wrong="CUDA error"
    echo "  the harness stopped on the CUDA error above: a kernel touched memory it does not own, or a launch"
    echo "  failed (memcheck, below, says which line)"
elif [ $code != 0 ] && [ $code != 1 ]; then
    wrong="crash"
    echo "  the harness ended with exit $code (124: over 300 s, a hang?)"
fi

echo "2. compute-sanitizer on the small sizes (memcheck, racecheck, synccheck)"
findings=0
kinds=""
if [ "${LAB_SANITIZE:-1}" = 0 ]; then
    echo "  skipped (LAB_SANITIZE=0)"
    sanitizer="not run"
elif ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "  compute-sanitizer is not on PATH (it comes with the CUDA Toolkit): skipped"
    sanitizer="not run"
else
    for tool in memcheck racecheck synccheck; do
        { timeout 300 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 86 \
              ./"$bin" --small >"$tmp/$tool" 2>&1 </dev/null; echo $? >"$tmp/$tool.code"; } &
    done
    wait
    for tool in memcheck racecheck synccheck; do
        # One line per distinct finding: what it is, the kernel, the source line(s).
        awk -v here="$PWD/" -f labs/findings.awk "$tmp/$tool" >"$tmp/$tool.lines"
        tool_code=$(cat "$tmp/$tool.code")
        case $tool_code in
        0|1) echo "  $tool: clean" ;;  # 1: the harness's own verdict, a wrong result (step 1 says which)
        86)
            if ! grep -qv '^Internal Sanitizer Error' "$tmp/$tool.lines"; then
                # A kernel that faults stops racecheck and synccheck too: not a finding of theirs.
                echo "  $tool: could not finish, a kernel faulted (memcheck says where)"
                continue
            fi
            findings=$((findings + 1))
            kinds="$kinds $tool"
            grep -v '^Internal Sanitizer Error' "$tmp/$tool.lines" | sed "s/^/  $tool: /" | head -n 5 ;;
        *)
            findings=$((findings + 1))
            kinds="$kinds $tool"
            echo "  $tool: the run ended with exit $tool_code (124: over 300 s, a hang?); its last lines:"
            tail -n 4 "$tmp/$tool" | sed 's/^/    /' ;;
        esac
    done
    grep -q 'Race reported' "$tmp/racecheck" 2>/dev/null &&
        echo "  hint: racecheck found threads touching the same shared memory with no __syncthreads() between them"
    sanitizer=clean
    [ $findings = 0 ] || sanitizer=$(echo $kinds | tr ' ' ',')
fi

if [ $correct != yes ] || [ $findings != 0 ]; then
    why=""
    [ $correct = yes ] || why=$wrong
    [ $findings = 0 ] || why="${why:+$why; }${sanitizer}"
    summary "$correct" "$sanitizer" "-" "-" "FAIL ($why)"
    exit 1
fi
if [ "${LAB_NO_TIME:-0}" = 1 ]; then
    summary yes "$sanitizer" "-" "-" "PASS"
    exit 0
fi

echo "3. Speed"
./"$bin" --time-only >"$tmp/time" 2>&1 </dev/null || { cat "$tmp/time"; summary yes "$sanitizer" "-" "-" "FAIL (the timed run failed)"; exit 1; }
grep -v '^lab-\|^device \|^Lab ' "$tmp/time"
mine=$(sed -n 's/^lab-median-ms //p' "$tmp/time")
percent_limit=$(sed -n 's/^lab-percent-of-limit //p' "$tmp/time")
limit="$(awk -v p="$percent_limit" 'BEGIN { printf "%.0f%%", p }') $(sed -n 's/^lab-limit //p' "$tmp/time")"
if [ -n "$solution" ] && [ -x "$solution" ]; then
    ./"$solution" --time-only >"$tmp/solution" 2>&1 </dev/null || { cat "$tmp/solution"; exit 1; }
    theirs=$(sed -n 's/^lab-median-ms //p' "$tmp/solution")
    percent=$(awk -v a="$mine" -v b="$theirs" 'BEGIN { printf "%.0f", 100 * b / a }')
    echo "  the course's solution: median $(awk -v b="$theirs" 'BEGIN { printf "%.3f", b }') ms; yours runs at $percent% of its speed (target: $target%)"
    rule="$target% of the solution"
else
    # A hand-out without solutions: the lab's target is a share of the limit instead.
    percent=$(awk -v p="$percent_limit" 'BEGIN { printf "%.0f", p }')
    target=$(sed -n 's/^lab-target-of-limit //p' "$tmp/time")
    echo "  no solution here (a hand-out): the target is $target% of the limit; yours reaches $percent%"
    rule="$target% of the limit"
fi
time_text=$(awk -v a="$mine" 'BEGIN { printf "%.3f ms", a }')
if [ "$percent" -ge "$target" ]; then
    summary yes "$sanitizer" "$time_text" "$percent%" "PASS" "$limit"
    exit 0
fi
echo "  correct, but slower than the target ($rule): the statement says what makes the solution fast"
summary yes "$sanitizer" "$time_text" "$percent%" "PASS but slow" "$limit"
exit 3
