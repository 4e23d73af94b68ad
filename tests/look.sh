#!/bin/sh
# tests/look.sh sass|ptx|profile PROGRAM SM "ARGS": what `make sass`, `make ptx` and `make profile` run.
#   sass     cuobjdump -sass: the machine code of PROGRAM's kernels for sm_SM
#   ptx      cuobjdump -ptx: the PTX embedded in PROGRAM (for the newest ARCH)
#   profile  Nsight Compute on PROGRAM's first kernels (KERNEL=name picks one, LAUNCHES=3 how many),
#            then Nsight Systems' timeline; reports in output/profile/. A missing tool, or counters this
#            user may not read, is said in one line. NP=N: an MPI program (heat_mpi) started by mpirun
#            with N ranks for the timeline, which holds every rank's process; Nsight Compute, which
#            looks at one kernel at a time, runs it alone (one rank).
set -u
what=$1 program=$2 sm=$3 args=$4
[ -n "$program" ] || { echo "make $what: which program? For instance: make $what P=ch2_reduction/better" >&2; exit 2; }
[ -x "$program" ] && [ -f "$program.cu" ] ||
    { echo "make $what: P=$program is not a program of the course (a path like ch2_reduction/better)" >&2; exit 2; }

# A tool on PATH, in the toolkit's bin/, or where the Nsight installers put it.
tool() {
    command -v "$1" 2>/dev/null && return
    for f in "${CUDA_DIR:-/usr/local/cuda}/bin/$1" /usr/local/cuda/bin/"$1" /opt/nvidia/nsight-*/*/"$1" \
             /opt/nvidia/nsight-*/*/bin/"$1" /usr/local/cuda/nsight-*/"$1" /usr/local/cuda/nsight-*/bin/"$1"; do
        [ -x "$f" ] && { echo "$f"; return; }
    done
}

case $what in
sass | ptx)
    cuobjdump=$(tool cuobjdump)
    [ -n "$cuobjdump" ] ||
        { echo "make $what: cuobjdump not found (it comes with the CUDA Toolkit's binary utilities)" >&2; exit 1; }
    if [ "$what" = sass ]; then
        "$cuobjdump" -sass -arch "sm_$sm" "$program"
    else
        "$cuobjdump" -ptx "$program"
    fi ;;
profile)
    name=$(basename "$program")
    launch=
    if [ -n "${NP:-}" ]; then
        case $NP in *[!0-9]* | 0*) echo "make profile: NP=$NP is not a number of ranks (NP=2)" >&2; exit 2 ;; esac
        command -v mpirun >/dev/null || { echo "make profile: NP=$NP needs mpirun (MPI) on PATH" >&2; exit 2; }
        launch="mpirun -np $NP"
    fi
    mkdir -p output/profile
    status=0
    ncu=$(tool ncu)
    if [ -z "$ncu" ]; then
        echo "make profile: ncu (Nsight Compute) not found; it comes with the CUDA Toolkit" \
            "or from developer.nvidia.com/nsight-compute"
    else
        # The first LAUNCHES kernels (or those named KERNEL), with the basic sections: speed of light
        # (how close to the memory's and the SMs' limits), launch shape and occupancy.
        "$ncu" --launch-count "${LAUNCHES:-3}" ${KERNEL:+--kernel-name regex:"$KERNEL"} --force-overwrite \
            --export "output/profile/$name" ./$program $args >"output/profile/$name.ncu.log" 2>&1
        if grep -q ERR_NVGPUCTRPERM "output/profile/$name.ncu.log"; then
            echo "make profile: this user may not read the GPU's performance counters (ERR_NVGPUCTRPERM);" \
                "an administrator can allow it, see developer.nvidia.com/ERR_NVGPUCTRPERM"
            status=1
        elif [ -f "output/profile/$name.ncu-rep" ]; then
            "$ncu" --import "output/profile/$name.ncu-rep" --page details
            echo "make profile: Nsight Compute report in output/profile/$name.ncu-rep (ncu-ui opens it)"
        else
            echo "make profile: ncu failed: $(grep -m 1 ERROR "output/profile/$name.ncu.log")"
            status=1
        fi
    fi
    nsys=$(tool nsys)
    if [ -z "$nsys" ]; then
        echo "make profile: nsys (Nsight Systems) not found; it comes from developer.nvidia.com/nsight-systems"
    elif "$nsys" profile --force-overwrite true --stats true --output "output/profile/$name" $launch ./$program $args \
            >"output/profile/$name.nsys.log" 2>&1; then
        grep -A 12 "cuda_gpu_kern_sum\|CUDA GPU Kernel Summary" "output/profile/$name.nsys.log" | head -n 14
        grep -A 14 "NVTX Range Summary" "output/profile/$name.nsys.log" | head -n 16  # where the program has ranges
        echo "make profile: Nsight Systems timeline in output/profile/$name.nsys-rep (nsys-ui opens it)"
    else
        echo "make profile: nsys failed: $(grep -m 1 -i error "output/profile/$name.nsys.log")"
        status=1
    fi
    exit $status ;;
esac
