#!/bin/sh
# On a machine with two or more GPUs, multi_gpu's answer split over every GPU equals its answer on one
# GPU, element for element: at this size every sum is exact, so both must equal the CPU's to the bit
# (tolerance 0), with the same total on every GPU. heat_mpi under mpirun, one rank per GPU: every way of
# exchanging the halo gives one GPU's field to the bit; more ranks than GPUs is refused on every rank
# with exit 2, and nobody hangs. One GPU, or no GPU, or no NCCL or MPI: skipped, saying why.
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

program=ch3_streams_events/heat_mpi
if [ "$gpus" -lt 2 ]; then
    skip "heat_mpi under mpirun -np 2 = one GPU" "fewer than 2 GPUs"
elif ! echo " ${PROGRAMS:-} " | grep -q " $program " || ! command -v mpirun >/dev/null; then
    skip "heat_mpi under mpirun -np 2 = one GPU" "$program not built, or no mpirun (MPI)"
else
    out=$(mktemp)
    NCCL_NVLS_ENABLE=0 timeout 300 mpirun -np 2 ./$program -n 2000 --steps 5 -r 2 </dev/null >"$out" 2>&1
    ok $? "mpirun -np 2 $program: exit 0" "$(tail -n 8 "$out")"
    [ "$(grep -c '^check: PASS' "$out")" -eq 15 ] && ! grep -q '^check: FAIL' "$out"
    ok $? "every way, 2 ranks: one GPU's field to the bit (15 checks)" "$(grep '^check' "$out")"
    timeout 120 mpirun --oversubscribe -np $((gpus + 1)) ./$program -n 2000 </dev/null >"$out" 2>&1
    code=$?
    [ $code = 2 ] && grep -q "ranks on this machine but $gpus GPUs" "$out"
    ok $? "mpirun -np $((gpus + 1)) on $gpus GPUs: exit 2, said once" "exit $code; $(tail -n 4 "$out")"
    rm -f "$out"
fi
done_testing
