#!/bin/sh
# A whole session's GPU work on a machine of four GPUs, side by side, each part on a GPU of its own:
#   sh tests/device_parallel.sh start OUT      builds, then starts the parts in the background and returns
#   sh tests/device_parallel.sh wait OUT S     waits up to S seconds for them, then prints their summaries
# The parts (PARTS= picks; the default is the four labs parts): tests/labs.t in four parts of the labs, part N
# on GPU N-1 (with the next GPU as a second, for the labs that use two), four grades at a time; every other
# test file (other: prove -j4, GPUs 2 and 0); make sanitize in two halves (sanitize_1, sanitize_2: GPUs 1 and
# 2); and on GPU 3 (overhead) `make labs SOLUTIONS=1` timed (OUT/labs_timed.log, OUT/solutions.csv), the
# solutions at 14 SMs (make small-gpu's labs part, through MPS), then tests/grade_overhead.sh. The parts other
# than labs are for a GPU the labs parts leave free: all nine at once on 64 CPUs (the run of 2026-11-28, the
# fifth session) made every grade three to six times slower, and no labs part ended in 26 minutes.
# A part's exit status and seconds land in OUT/PART.rc. The parts run in sessions of their own (setsid), so
# that a device call may return while they run: on a lent machine, call `wait` again at once (an idle
# machine is given back within a minute, its work with it), each call carrying the same ignored paths
# (.tools). OUT must lie outside the course (/tmp/run): the parts run from a copy of it in OUT/course, where
# everything the tests run is built first (make test-programs: parts that built it side by side linked a
# program while another part ran it, the same run). The labs parts' logs are verbose (prove -v): a test's
# line as it ends, what a part did kept if the session's time ends first.
# Logs: OUT/*.log; OUT/graded_N.csv (each labs part's verdicts); OUT/small/ (the 14-SM run); OUT/grade_overhead.csv.
set -u
what=${1:?usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]}
out=${2:?usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]}
case $out in /*) ;; *) out=$PWD/$out ;; esac
labs_parts="labs_1 labs_2 labs_3 labs_4"
# PARTS=... runs those (the labs parts, other, sanitize_1, sanitize_2, overhead)
parts=${PARTS:-$labs_parts}
want() { case " $parts " in *" $1 "*) true ;; *) false ;; esac; }
# The labs in four parts of about equal work (the files tests/ grades for a lab, its slow mistakes, and its
# grade's own seconds: ch1_transpose's and ch1_debug_bounds's are the longest), greedily, heaviest first.
lab_parts() {
    for lab in $(make -s --no-print-directory lab-list); do
        n=$( (ls tests/cheats tests/honest tests/rules; cat labs/solutions/mistakes.txt tests/*.txt) 2>/dev/null |
             grep -c "$lab")
        # (a slow mistake is timed alone, against the solution: as much as three others)
        n=$((n + 2 * $(grep -c "^$lab [^ ]* slow " labs/solutions/mistakes.txt)))
        case $lab in ch1_transpose|ch1_debug_bounds) n=$((n + 10)) ;; esac
        echo "$((n + 4)) $lab"
    done | sort -rn | awk '{ best = 1; for (p = 2; p <= 4; p++) if (w[p] < w[best]) best = p
                             w[best] += $1; l[best] = l[best] " " $2 }
                           END { for (p = 1; p <= 4; p++) print p l[p] }'
}
part() {  # part NAME COMMAND: COMMAND in a session of its own; its status and seconds to OUT/NAME.rc
    setsid sh -c "start=\$(date +%s); $2; echo \"\$? \$(( \$(date +%s) - start )) s\" >'$out/$1.rc'" \
        </dev/null >/dev/null 2>&1 &
}
case $what in
start)
    mkdir -p "$out" && rm -f "$out"/*.rc
    # The parts run from a copy of the course in OUT/course: a lent machine's next call sends the working
    # tree again, and files vanish for a moment under whatever runs from it (the first start of the night
    # of 2026-11-27 was lost so, every part failing at once).
    case $out/ in "$PWD"/*) echo "tests/device_parallel.sh: OUT must lie outside the course" >&2; exit 2 ;; esac
    rm -rf "$out/course" && cp -a . "$out/course" && cd "$out/course" || exit 1
    { date -u; nvidia-smi; nvcc --version; } >"$out/machine.txt" 2>&1
    [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 4 ] ||
        { echo "tests/device_parallel.sh: a machine of four GPUs (tests/device_session.sh for one)" >&2; exit 2; }
    t0=$(date +%s)
    make -j"$(nproc)" test-programs >"$out/build.log" 2>&1 ||
        { tail -n 20 "$out/build.log"; exit 1; }
    echo "build: $(( $(date +%s) - t0 )) s"
    others=$(ls tests/*.t | grep -v '/labs\.t$' | tr '\n' ' ')
    # (each labs part on a GPU of its own, the next one its second for the labs that use two)
    lab_parts >"$out/lab_parts.txt"
    while read -r p labs; do
        want "labs_$p" || continue
        gpus=$(echo "0,1 1,2 2,3 3,0" | cut -d' ' -f"$p")
        part "labs_$p" "CUDA_VISIBLE_DEVICES=$gpus LABS_PARALLEL=4 LABS_GRADED_CSV='$out/graded_$p.csv' make test \
            TESTS='-v tests/labs.t' LAB_SUBSET='$labs' >'$out/labs_$p.log' 2>&1"
    done <"$out/lab_parts.txt"
    want other && part other "CUDA_VISIBLE_DEVICES=2,0 make test TESTS='-j4 $others' >'$out/other.log' 2>&1"
    want sanitize_1 &&
        part sanitize_1 "CUDA_VISIBLE_DEVICES=1 make sanitize ONLY='^ch[125]_' >'$out/sanitize_1.log' 2>&1"
    want sanitize_2 &&
        part sanitize_2 "CUDA_VISIBLE_DEVICES=2 make sanitize ONLY='^ch[34]_' >'$out/sanitize_2.log' 2>&1"
    # (on GPU 3 alone: make labs SOLUTIONS=1 timed, the solutions at 14 SMs through MPS, then the benchmark)
    want overhead && part overhead "CUDA_VISIBLE_DEVICES=3 make labs SOLUTIONS=1 \
        CSV='$out/solutions.csv' >'$out/labs_timed.log' 2>&1; MPS_GPU=3 PARTS=labs sh tests/small_gpu.sh \
        '$out/small' gtx1650 >'$out/small.log' 2>&1; CUDA_VISIBLE_DEVICES=3 sh tests/grade_overhead.sh \
        '$out/grade_overhead.csv' >'$out/overhead.log' 2>&1"
    echo "started: $parts"
    ;;
wait)
    end=$(( $(date +%s) + ${3:-540} ))
    all=$(echo $parts | wc -w)
    while [ "$(ls "$out"/*.rc 2>/dev/null | wc -l)" -lt "$all" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 10; done
    for p in $parts; do
        passed=$(grep -c '^ok' "$out/$p.log" 2>/dev/null) failed=$(grep -c '^not ok' "$out/$p.log" 2>/dev/null)
        echo "== $p: $(cat "$out/$p.rc" 2>/dev/null || echo running) (${passed:-0} ok, ${failed:-0} not ok so far)"
        grep -E '^(Files=|Result:|make test:|not ok)|Failed tests' "$out/$p.log" 2>/dev/null | head -n 12
    done
    echo "== small (14 SMs)"; grep -E '^(ok|not ok|#  )' "$out/small.log" 2>/dev/null | head -n 12
    echo "== make labs SOLUTIONS=1 (GPU 3)"; grep '^make labs (' "$out/labs_timed.log" 2>/dev/null
    echo "== overhead"; tail -n 2 "$out/overhead.log" 2>/dev/null
    ;;
*) echo "usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]" >&2; exit 2 ;;
esac
