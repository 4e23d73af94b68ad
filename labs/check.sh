#!/bin/sh
# Checks one lab: sh labs/check.sh LAB BINARY [SOLUTION_BINARY]   (make lab L=LAB builds them and calls this)
# 1. correctness: the harness at every size, the first wrong element and a hint where one fits;
# 2. compute-sanitizer's memcheck, racecheck and synccheck on the small sizes, one line per finding;
# 3. speed: the median against the course's solution (timed now, on this GPU) and the limit that binds.
# Verdict and exit status: PASS 0; FAIL 1 (a wrong result, a sanitizer finding, or a sanitizer run that
# did not finish); PASS but slow 3 (under TARGET percent of the solution's speed, 70 by default); 77
# when there is no GPU.
# LAB_NO_TIME=1 stops after the sanitizer (make test: checks, not timings); LAB_SANITIZE=0 leaves the
# sanitizer out (it is reported as "not run", and the verdict stands on the rest); LAB_SERIAL=1 runs the
# three tools one after another (needed on a GPU shared through MPS, below). The last line,
# "lab-summary LAB|correct|sanitizer|time|percent|verdict|share of the limit", is what make labs
# tabulates.
set -u
lab=${1:?usage: labs/check.sh LAB BINARY [SOLUTION_BINARY]}
bin=${2:?usage: labs/check.sh LAB BINARY [SOLUTION_BINARY]}
solution=${3:-}
target=${TARGET:-70}
path_of() { case $1 in /*) echo "$1" ;; *) echo "./$1" ;; esac; }  # a program run by its path, not from PATH
run=$(path_of "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

summary() {  # correct sanitizer time percent verdict [share of the limit]
    echo "verdict: $5"
    echo "lab-summary $lab|$1|$2|$3|$4|$5|${6:-}"
}

# gpu_run OUTPUT COMMAND...: runs it (300 s at most), its output in OUTPUT, and returns its exit status.
# On a GPU shared through MPS, a fault in any one process stops every process on the GPU, and the
# server turns new ones away until they have all ended (cudaErrorMpsServerNotReady); a GPU in exclusive
# mode is busy while another program holds it (cudaErrorDevicesUnavailable). Both pass: try again.
gpu_run() {
    gpu_out=$1; shift
    for try in 1 2 3 4 5; do
        timeout 300 "$@" >"$gpu_out" 2>&1 </dev/null
        gpu_code=$?
        grep -q -e cudaErrorMpsServerNotReady -e cudaErrorDevicesUnavailable "$gpu_out" || break
        sleep 2
    done
    return $gpu_code
}
cuda_error() { grep -m 1 -e ' failed: cuda[A-Za-z]*' -e '^no usable CUDA device' "$1"; }

echo "== Lab $lab: $bin"
echo "1. Correctness"
gpu_run "$tmp/check" "$run"
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
    sanitize() {  # sanitize TOOL: its output in $tmp/TOOL, its exit status in $tmp/TOOL.code
        gpu_run "$tmp/$1" compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 86 "$run" --small
        echo $? >"$tmp/$1.code"
    }
    for tool in memcheck racecheck synccheck; do
        if [ "${LAB_SERIAL:-0}" = 1 ]; then sanitize $tool; else sanitize $tool & fi
    done
    wait
    # A tool says clean only when it ran the program to its end: its summary line is there, and the
    # program met no CUDA error that the plain run of step 1 did not meet too. A run that stopped
    # short (a time-out, a GPU taken away, the tool's own failure) did not finish: no finding of that
    # tool, and no verdict of PASS either.
    unfinished=""
    for tool in memcheck racecheck synccheck; do
        # One line per distinct finding: what it is, the kernel, the source line(s).
        awk -v here="$PWD/" -f labs/findings.awk "$tmp/$tool" >"$tmp/$tool.lines"
        tool_code=$(cat "$tmp/$tool.code")
        stopped=$(cuda_error "$tmp/$tool")
        case $tool_code in
        0|1)  # 1: the harness's own verdict, a wrong result (step 1 says which)
            if [ -n "$stopped" ] && [ "$wrong" = "CUDA error" ]; then
                echo "  $tool: could not finish, the program stops on a CUDA error (step 1 says where)"
            elif [ -n "$stopped" ] || ! grep -q 'SUMMARY: ' "$tmp/$tool"; then
                unfinished="$unfinished $tool"
                echo "  $tool: did not finish: ${stopped:-no summary from the tool}"
                [ -z "$stopped" ] || echo "    (step 1 met no such error: on a GPU shared through MPS, another process's fault stops them all; LAB_SERIAL=1)"
            else
                echo "  $tool: clean"
            fi ;;
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
            unfinished="$unfinished $tool"
            echo "  $tool: did not finish: the run ended with exit $tool_code (124: over 300 s, a hang?); its last lines:"
            tail -n 4 "$tmp/$tool" | sed 's/^/    /' ;;
        esac
    done
    grep -q 'Race reported' "$tmp/racecheck" 2>/dev/null &&
        echo "  hint: racecheck found threads touching the same shared memory with no __syncthreads() between them"
    # The summary's sanitizer field names the tools that found something, and only them.
    sanitizer=clean
    [ -z "$unfinished" ] || sanitizer="did not finish"
    [ $findings = 0 ] || sanitizer=$(echo $kinds | tr ' ' ',')
fi

if [ $correct != yes ] || [ $findings != 0 ] || [ -n "${unfinished:-}" ]; then
    why=""
    [ $correct = yes ] || why=$wrong
    [ $findings = 0 ] || why="${why:+$why; }$(echo $kinds | tr ' ' ',')"
    [ -z "${unfinished:-}" ] || why="${why:+$why; }$(echo $unfinished | tr ' ' ',') did not finish"
    summary "$correct" "$sanitizer" "-" "-" "FAIL ($why)"
    exit 1
fi
if [ "${LAB_NO_TIME:-0}" = 1 ]; then
    summary yes "$sanitizer" "-" "-" "PASS"
    exit 0
fi

echo "3. Speed"
"$run" --time-only >"$tmp/time" 2>&1 </dev/null || { cat "$tmp/time"; summary yes "$sanitizer" "-" "-" "FAIL (the timed run failed)"; exit 1; }
grep -v '^lab-\|^device \|^Lab ' "$tmp/time"
mine=$(sed -n 's/^lab-median-ms //p' "$tmp/time")
percent_limit=$(sed -n 's/^lab-percent-of-limit //p' "$tmp/time")
limit="$(awk -v p="$percent_limit" 'BEGIN { printf "%.0f%%", p }') $(sed -n 's/^lab-limit //p' "$tmp/time")"
if [ -n "$solution" ] && [ -x "$solution" ]; then
    "$(path_of "$solution")" --time-only >"$tmp/solution" 2>&1 </dev/null || { cat "$tmp/solution"; exit 1; }
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
