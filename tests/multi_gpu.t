#!/bin/sh
# On a machine with two or more GPUs, multi_gpu's answer split over every GPU equals its answer on one
# GPU, element for element: at this size every sum is exact, so both must equal the CPU's to the bit
# (tolerance 0), with the same total on every GPU. One GPU, or no GPU, or no NCCL: skipped, saying why.
. tests/tap.sh
program=ch3_streams_events/multi_gpu
gpus=$(gpu_count)
if [ "$gpus" -lt 2 ]; then
    skip "split over GPUs = one GPU" "fewer than 2 GPUs"
elif ! echo " ${PROGRAMS:-} " | grep -q " $program "; then
    skip "split over GPUs = one GPU" "$program not built (no NCCL)"
else
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    NCCL_NVLS_ENABLE=0 timeout 300 ./$program -n 2000003 -r 1 </dev/null >"$out" 2>&1
    ok $? "$program -n 2000003 on $gpus GPUs: exit 0" "$(tail -n 5 "$out")"
    # check: PASS (WHAT: 0 of the elements off by more than 0.0e+00 (worst ...); total T (exact: T) on every GPU: yes)
    lines=$(grep '^check: PASS' "$out" | grep -c 'more than 0.0e+00 .*; total \([0-9]*\) (exact: \1) on every GPU: yes')
    [ "$lines" -eq 3 ]
    ok $? "one GPU, $gpus with NCCL, $gpus through the host: each exact, one total" "$(grep '^check' "$out")"
fi
done_testing
