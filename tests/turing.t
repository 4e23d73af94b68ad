#!/bin/sh
# Turing's limits as guarantees (no GPU needed). Every kernel of every program is compiled for sm_75
# (a T4, a GTX 1650: the smallest GPUs the course supports) and must fit the block it may be launched
# with: 64 K registers per block (allocated 256 at a time per warp) and 48 KiB of static shared memory.
# A kernel with __launch_bounds__(N) (PTX's .maxntid) may get N threads a block; one without it, up to
# 1024. The course's own kernels must also not spill registers to local memory there.
. tests/tap.sh
command -v nvcc >/dev/null || skip_all "nvcc is not on PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The programs make builds (PROGRAMS, from make test): multi_gpu and heat_mpi are left out where there
# is no NCCL or no MPI, and their kernels skipped, naming the part.
sources=$(for cu in ch*/*.cu; do
    case " ${PROGRAMS:-${cu%.cu}} " in *" ${cu%.cu} "*) echo "$cu" ;; esac
done)
for cu in ch*/*.cu; do
    why=$(PROGRAMS=${PROGRAMS:-${cu%.cu}} not_built "${cu%.cu}") && skip "$cu compiles for sm_75" "$why"
done

# PTX for compute_75, then ptxas's resource report for sm_75; one source at a time, in parallel.
# NCCL_INCLUDE (from make test) is where nccl.h is, for multi_gpu and heat_mpi; MPI_FLAGS where mpi.h is.
echo "$sources" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c '
    out="$1/$(echo "$2" | tr / _)"
    nvcc -std=c++17 -O3 -ptx -arch=compute_75 ${NCCL_INCLUDE:+-I"$NCCL_INCLUDE"} ${MPI_FLAGS:-} "$2" -o "$out.ptx" \
        2>"$out.err" &&
        ptxas -arch=sm_75 -v "$out.ptx" -o /dev/null 2>"$out.usage"' sh "$tmp" {}

for cu in $sources; do
    out="$tmp/$(echo "$cu" | tr / _)"
    if [ ! -s "$out.usage" ]; then
        ok 1 "$cu compiles for sm_75" "$(cat "$out.err" 2>/dev/null)"
        continue
    fi
    # One line per kernel: name, threads it may get, registers, static shared bytes, spilled bytes.
    awk '
        FNR == NR {  # the PTX: entry names and their .maxntid
            if ($0 ~ /\.entry /) { name = $0; sub(/.*\.entry /, "", name); sub(/\(.*/, "", name) }
            if ($1 == ".maxntid") threads[name] = $2 * $3 * $4  # ".maxntid 1024, 1, 1"
            next
        }
        /Compiling entry function/ { name = $0; sub(/.*function .\047?/, "", name); sub(/\047.*/, "", name) }
        /Function properties for/ { props = $NF }
        /spill stores/ { spill[props] = $5 }
        /Used [0-9]+ registers/ {  # "Used 64 registers, used 1 barriers, 4096 bytes smem, ..."
            regs = $5; smem = 0
            for (i = 3; i <= NF; i++) if ($i ~ /^smem/) smem = $(i - 2)
            print name, (name in threads ? threads[name] : 1024), regs, smem, spill[name] + 0
        }' "$out.ptx" "$out.usage" >"$out.kernels"
    [ -s "$out.kernels" ]
    ok $? "$cu: ptxas reports its kernels for sm_75" "$(head -n 5 "$out.usage")"
    while read -r name threads regs smem spill; do
        warps=$(( (threads + 31) / 32 ))
        per_warp=$(( (regs * 32 + 255) / 256 * 256 ))
        ours=1
        case "$name" in *cub*|*thrust*|*cuda3std*) ours=0 ;; esac
        fits=$(( warps * per_warp <= 65536 && smem <= 49152 ))
        [ "$ours" = 1 ] && [ "$spill" -gt 0 ] && fits=0
        # The kernel's name out of its mangled one: _Z9divide_byPfxPKf is divide_by (9 letters).
        label="a CUB kernel"
        length=$(echo "$name" | sed -nE 's/^_Z([0-9]+).*/\1/p')
        [ "$ours" = 1 ] && [ -n "$length" ] &&
            label=$(echo "$name" | cut -c $((3 + ${#length}))-$((2 + ${#length} + length)))
        ok $((1 - fits)) "$cu: $label, $regs registers x $threads threads, $smem B shared, fits sm_75" \
            "needs $((warps * per_warp)) of 65536 registers, $smem of 49152 B shared, $spill B spilled"
    done <"$out.kernels"
done
done_testing
