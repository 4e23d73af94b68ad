#!/bin/sh
# The Makefile's promises, on a copy of the course in a temporary folder (no GPU needed): a change of
# ARCH or of a flag rebuilds, user flags add to the course's, HOST_COMPILER reaches nvcc, a missing nvcc
# is one line, a missing NCCL leaves multi_gpu out with one line (so do NCCL=none and MPI=none, as CI
# uses them) naming what to install, said once and only by a make whose goals need it, and make help
# names every target.
. tests/tap.sh
command -v nvcc >/dev/null || skip_all "nvcc is not on PATH"
# From make test: the sub-makes below are top-level ones, without its knobs.
unset MAKEFLAGS MFLAGS MAKELEVEL MPI NCCL GNUPLOT MAKE_NOTES_SAID
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ch1_embarrassing"
cp -r Makefile common "$tmp/" && cp ch1_embarrassing/add_scalars.cu "$tmp/ch1_embarrassing/"
rm -f "$tmp"/common/*.o
p=ch1_embarrassing/add_scalars
(cd "$tmp" && make -s ARCH=80 $p >"$tmp/log" 2>&1)
ok $? "make ARCH=80 $p builds" "$(tail -n 5 "$tmp/log")"
(cd "$tmp" && make -q ARCH=80 $p)
ok $? "then it is up to date for ARCH=80"
(cd "$tmp" && make -q ARCH=90 $p)
ok $((! $?)) "and out of date for ARCH=90: a change of ARCH rebuilds"
(cd "$tmp" && make -q ARCH=90 EXTRA_NVCCFLAGS=-DCOURSE_TEST $p)
ok $((! $?)) "a new flag rebuilds too"
(cd "$tmp" && make -s ARCH=80 $p >/dev/null 2>&1 && make -q ARCH=80 $p && ! make -q ARCH=80 MPI_HOME=/opt/another $p)
ok $? "so does another MPI_HOME (README.md: every knob but NCCL_HOME rebuilds)"
line=$(cd "$tmp" && make -n ARCH=80 NVCCFLAGS=-DCOURSE_TEST HOST_COMPILER=g++ $p | grep "add_scalars.cu")
echo "$line" | grep -q -- "-O3.*-gencode arch=compute_80.*-ccbin g++.*-DCOURSE_TEST"
ok $? "NVCCFLAGS= adds after the course's flags (-gencode, -O3 kept), HOST_COMPILER= gives -ccbin" "$line"
out=$(cd "$tmp" && PATH=/usr/bin:/bin make NVCC=/nonexistent/nvcc $p 2>&1)
[ "$(echo "$out" | grep -c .)" -eq 1 ] && echo "$out" | grep -q "nvcc not found"
ok $? "without nvcc: one line that says so" "$out"
out=$(NCCL_HOME=/nonexistent make -n all 2>&1)
[ "$(echo "$out" | grep -c "no NCCL found")" -eq 1 ] && ! echo "$out" | grep -q -e "multi_gpu.cu" -e "heat_mpi.cu" &&
    echo "$out" | grep "no NCCL found" | grep -q "install libnccl-dev.* or pip install nvidia-nccl-cu12"
ok $? "without NCCL: one line naming what to install, and multi_gpu and heat_mpi are not built" \
   "$(echo "$out" | grep -i nccl | head -n 3)"
# A bare make (README: make -j"$(nproc)" builds everything), where NCCL and MPI are missing: the programs,
# not the stand-in that says what is left out.
out=$(make -n -B NCCL=none MPICC=/nonexistent 2>&1); code=$?
[ $code = 0 ] && echo "$out" | grep -q "ch2_reduction/better.cu" && ! echo "$out" | grep -q "multi_gpu.cu"
ok $? "a bare make without NCCL and MPI plans every program but theirs, exit 0" "exit $code; $(echo "$out" | tail -n 3)"
out=$(make -n all MPICC=/nonexistent 2>&1)
[ "$(echo "$out" | grep -c "no MPI found")" -eq 1 ] &&
    echo "$out" | grep "no MPI found" | grep -q "install Open MPI (Debian/Ubuntu: libopenmpi-dev openmpi-bin)"
ok $? "without MPI: one line naming the packages to install" "$(echo "$out" | grep -i mpi | head -n 3)"
# The knobs CI uses to check a machine without them: each part said missing once, its programs left out
# of the build and named to the tests.
out=$(make -n all MPI=none NCCL=none 2>&1)
no_mpi="^make: no MPI (MPI=none); ch3_streams_events/heat_mpi and the lab ch3_halo are not built"
[ "$(echo "$out" | grep -c "$no_mpi")" -eq 1 ] && [ "$(echo "$out" | grep -c "^make: no NCCL (NCCL=none)")" -eq 1 ] &&
    ! echo "$out" | grep -q -e "multi_gpu.cu" -e "heat_mpi.cu"
ok $? "MPI=none NCCL=none: one line each, heat_mpi and multi_gpu not built" "$(echo "$out" | grep '^make' | head -n 3)"
# Said only where a goal needs the part, and once: not by make help, make ch2 or labs/grade's questions
# (lab-nvcc, lab-settings), nor again by a make started under one that said it (the tests', labs/grade's).
quiet=""
for goal in help ch2 lab-nvcc lab-settings lab-list; do
    make -n -s $goal MPI=none NCCL=none 2>&1 >/dev/null | grep -q "^make: no " && quiet="$quiet $goal"
done
[ -z "$quiet" ]; ok $? "no MPI or NCCL note on make help, ch2, lab-nvcc, lab-settings, lab-list" "said on:$quiet"
out=$(printf 'nested:\n\t@$(MAKE) -s -f Makefile all\n' | make -n -f Makefile -f - all nested MPI=none NCCL=none 2>&1)
[ "$(echo "$out" | grep -c "^make: no MPI")" -eq 1 ] && [ "$(echo "$out" | grep -c "^make: no NCCL")" -eq 1 ]
ok $? "a make under one that said the notes does not say them again" "$(echo "$out" | grep '^make: no')"
out=$(echo 'print-not-built: ; @echo "$(NOT_BUILT)"' |
      make -s -f Makefile -f - MPI=none NCCL=none print-not-built 2>/dev/null | tail -n 1)
[ "$out" = "ch3_streams_events/multi_gpu:NCCL ch3_streams_events/heat_mpi:MPI,NCCL" ]
ok $? "and the tests are told which part each lacks (NOT_BUILT)" "NOT_BUILT=$out"
help=$(make help)
missing=""
for target in all test sanitize small-gpu fuzz figures notebook colab sass ptx profile compile_commands.json clean \
              classroom runner-check; do
    echo "$help" | grep -q -- "$target" || missing="$missing $target"
done
for knob in ARCH DEBUG NVCCFLAGS EXTRA_NVCCFLAGS HOST_COMPILER NVCC NCCL_HOME MPI_HOME \
            NCCL=none MPI=none GNUPLOT=none NP= CLASSROOM_RUNS_ON CLASSROOM_LABS; do
    echo "$help" | grep -q -- "$knob" || missing="$missing $knob"
done
[ -z "$missing" ]
ok $? "make help names every target and knob" "missing:$missing"
done_testing
