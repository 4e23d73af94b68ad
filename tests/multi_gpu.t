#!/bin/sh
# On a machine with two or more GPUs, multi_gpu's answer split over every GPU equals its answer on one
# GPU, element for element: at this size every sum is exact, so both must equal the CPU's to the bit
# (tolerance 0), with the same total on every GPU. heat_mpi under mpirun, one rank per GPU: every way of
# exchanging the halo gives one GPU's field to the bit, whether a rank sees every GPU (mpirun) or only
# its own (Slurm's --gpus-per-task=1); more ranks than GPUs, or two ranks shown the same GPU, is refused
# on every rank with exit 2, said once, and nobody hangs. A failed MPI call names itself and its rank and
# ends the job with exit 1 (no GPU needed). No GPU (or one, for the runs that need two), no NCCL or no
# MPI: skipped, saying why.
. tests/tap.sh
program=ch3_streams_events/multi_gpu
gpus=$(gpu_count)
if why=$(not_built $program); then
    skip "split over GPUs = one GPU" "$why"
elif [ "$gpus" -lt 2 ]; then
    skip "split over GPUs = one GPU" "fewer than 2 GPUs"
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
# A failed MPI call, planted: a library loaded first in every rank passes MPI_Allgather (heat_mpi's first
# collective, before any GPU work) a count of -1. heat_mpi must name the call and its rank and end the
# job with exit 1; MPI's own handler would end it with the error's class, MPI_ERR_COUNT's 2.
name="heat_mpi: a failed MPI call is named with its rank, exit 1"
if why=$(not_built $program); then
    skip "$name" "$why"
elif ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
    skip "$name" "no mpirun or mpicc on PATH (MPI)"
else
    dir=$(mktemp -d)
    printf '%s\n' '#include <mpi.h>' \
        'int MPI_Allgather(const void *s, int n, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)' \
        '{ (void)n; return PMPI_Allgather(s, -1, st, r, rn, rt, c); }' >"$dir/fault.c"
    mpicc -shared -fPIC "$dir/fault.c" -o "$dir/fault.so" 2>"$dir/err"
    timeout 120 mpirun -np 2 sh -c "LD_PRELOAD=$dir/fault.so exec \"\$0\" \"\$@\"" ./$program -n 100 \
        </dev/null >"$dir/out" 2>&1
    code=$?
    [ $code = 1 ] && grep -q "^rank [01]: MPI_Allgather failed: MPI_ERR_COUNT" "$dir/out"
    ok $? "$name" "exit $code; $(cat "$dir/err"; grep -m 6 . "$dir/out")"
    rm -rf "$dir"
fi

# mpirun's rank on this machine (Open MPI's variable, MPICH's), for a rank that is shown one GPU only.
one_gpu_each='CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-0}} exec "$0" "$@"'
if why=$(not_built $program); then
    skip "heat_mpi under mpirun" "$why"
elif ! command -v mpirun >/dev/null; then  # built against MPI_HOME=DIR, whose mpirun is not on PATH
    skip "heat_mpi under mpirun" "no mpirun on PATH (MPI)"
elif [ "$gpus" -lt 1 ]; then
    skip "heat_mpi under mpirun" "no GPU"
else
    out=$(mktemp)
    if [ "$gpus" -lt 2 ]; then
        skip "heat_mpi under mpirun -np 2 = one GPU" "fewer than 2 GPUs"
    else
        NCCL_NVLS_ENABLE=0 timeout 300 mpirun -np 2 ./$program -n 2000 --steps 5 -r 2 </dev/null >"$out" 2>&1
        ok $? "mpirun -np 2 $program: exit 0" "$(tail -n 8 "$out")"
        [ "$(grep -c '^check: PASS' "$out")" -eq 15 ] && ! grep -q '^check: FAIL' "$out"
        ok $? "every way, 2 ranks: one GPU's field to the bit (15 checks)" "$(grep '^check' "$out")"
        # As Slurm's --gpus-per-task=1 runs it: each rank sees one GPU, its own, and takes it.
        NCCL_NVLS_ENABLE=0 timeout 300 mpirun -np 2 sh -c "$one_gpu_each" ./$program -n 2000 --steps 5 -r 2 \
            </dev/null >"$out" 2>&1
        code=$?
        [ $code = 0 ] && [ "$(grep -c '^check: PASS' "$out")" -eq 15 ] && ! grep -q '^check: FAIL' "$out"
        ok $? "mpirun -np 2, each rank seeing one GPU (as Slurm's --gpus-per-task=1): exit 0, 15 checks" \
            "exit $code; $(tail -n 8 "$out")"
    fi
    # More ranks than GPUs: refused on every rank, said once. Where every rank sees the one GPU (one GPU,
    # or CUDA_VISIBLE_DEVICES=0 for all), two ranks would share it.
    timeout 120 mpirun --oversubscribe -np $((gpus + 1)) ./$program -n 2000 </dev/null >"$out" 2>&1
    code=$?
    [ $code = 2 ] && [ "$(grep -c "ranks on this machine but $gpus GPU" "$out")" = 1 ]
    ok $? "mpirun -np $((gpus + 1)) on $gpus GPU(s): exit 2, said once" "exit $code; $(tail -n 4 "$out")"
    CUDA_VISIBLE_DEVICES=0 timeout 120 mpirun -x CUDA_VISIBLE_DEVICES --oversubscribe -np 2 ./$program -n 2000 \
        </dev/null >"$out" 2>&1
    code=$?
    [ $code = 2 ] && [ "$(grep -c "2 ranks on this machine but 1 GPU:" "$out")" = 1 ]
    ok $? "mpirun -np 2, both ranks seeing the same one GPU: exit 2, said once" "exit $code; $(tail -n 4 "$out")"
    rm -f "$out"
fi
done_testing
