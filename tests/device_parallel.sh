#!/bin/sh
# A whole session's GPU work on a machine of four GPUs, side by side, each part on a GPU of its own:
#   sh tests/device_parallel.sh start OUT      builds, then starts the parts in the background and returns
#   sh tests/device_parallel.sh wait OUT S     waits up to S seconds for them, then prints their summaries
# The parts: tests/labs.t in two halves of the labs (GPUs 0 and 1, the first with GPU 2 as a second GPU for
# the labs that use two), every other test file (GPUs 2 and 0) and make sanitize (GPU 2), then the
# solutions at 14 SMs (make small-gpu's labs part, through MPS on GPU 1 once its half of labs.t is done),
# and tests/grade_overhead.sh (GPU 3). A part's exit status and seconds land in OUT/PART.rc. The parts
# run in sessions of their own (setsid), so that a device call may return while they run: on a lent
# machine, call `wait` again at once (an idle machine is given back within a minute, its work with it).
# Logs: OUT/*.log; OUT/small/ (the 14-SM run); OUT/grade_overhead.csv.
set -u
what=${1:?usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]}
out=${2:?usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]}
case $out in /*) ;; *) out=$PWD/$out ;; esac
parts="labs_first labs_second other sanitize overhead"
first="ch1_block_index ch1_one_thread_each ch1_two_inputs ch1_grid_2d ch2_shared_reverse ch1_map ch1_image"
first="$first ch1_transpose ch1_debug_bounds ch2_block_sum ch2_warp_sum ch2_debug_barrier ch2_debug_warp"
first="$first ch3_allreduce ch3_halo ch5_tiled ch5_register_tile ch5_cublas ch5_mma"
second=$(for lab in $(make -s --no-print-directory lab-list); do
             case " $first " in *" $lab "*) ;; *) printf '%s ' "$lab" ;; esac
         done)
part() {  # part NAME COMMAND: COMMAND in a session of its own; its status and seconds to OUT/NAME.rc
    setsid sh -c "start=\$(date +%s); $2; echo \"\$? \$(( \$(date +%s) - start )) s\" >'$out/$1.rc'" \
        </dev/null >/dev/null 2>&1 &
}
case $what in
start)
    mkdir -p "$out" && rm -f "$out"/*.rc
    { date -u; nvidia-smi; nvcc --version; } >"$out/machine.txt" 2>&1
    [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 4 ] ||
        { echo "tests/device_parallel.sh: a machine of four GPUs (tests/device_session.sh for one)" >&2; exit 2; }
    t0=$(date +%s)
    make -j"$(nproc)" all tests/unit_common lab-programs lab-mistake-files >"$out/build.log" 2>&1 ||
        { tail -n 20 "$out/build.log"; exit 1; }
    echo "build: $(( $(date +%s) - t0 )) s"
    others=$(ls tests/*.t | grep -v '/labs\.t$' | tr '\n' ' ')
    part labs_first "CUDA_VISIBLE_DEVICES=0,2 make test TESTS=tests/labs.t LAB_SUBSET='$first' \
        >'$out/labs_first.log' 2>&1"
    part labs_second "CUDA_VISIBLE_DEVICES=1 make test TESTS=tests/labs.t LAB_SUBSET='$second' \
        >'$out/labs_second.log' 2>&1; s=\$?; MPS_GPU=1 PARTS=labs sh tests/small_gpu.sh '$out/small' gtx1650 \
        >'$out/small.log' 2>&1; [ \$s = 0 ]"
    part other "CUDA_VISIBLE_DEVICES=2,0 make test TESTS='$others' >'$out/other.log' 2>&1"
    part sanitize "CUDA_VISIBLE_DEVICES=2 make sanitize >'$out/sanitize.log' 2>&1"
    part overhead "CUDA_VISIBLE_DEVICES=3 sh tests/grade_overhead.sh '$out/grade_overhead.csv' \
        >'$out/overhead.log' 2>&1"
    echo "started: $parts"
    ;;
wait)
    end=$(( $(date +%s) + ${3:-540} ))
    while [ "$(ls "$out"/*.rc 2>/dev/null | wc -l)" -lt 5 ] && [ "$(date +%s)" -lt "$end" ]; do sleep 10; done
    for p in $parts; do
        echo "== $p: $(cat "$out/$p.rc" 2>/dev/null || echo running)"
        grep -E '^(Files=|Result:|make test:|not ok)|Failed tests' "$out/$p.log" 2>/dev/null | head -n 12
    done
    echo "== small (14 SMs)"; grep -E '^(ok|not ok|#  )' "$out/small.log" 2>/dev/null | head -n 12
    echo "== overhead"; tail -n 1 "$out/overhead.log" 2>/dev/null
    ;;
*) echo "usage: sh tests/device_parallel.sh start|wait OUT [SECONDS]" >&2; exit 2 ;;
esac
