#!/bin/sh
# The Makefile's promises, on a copy of the course in a temporary folder (no GPU needed): a change of
# ARCH or of a flag rebuilds, user flags add to the course's, HOST_COMPILER reaches nvcc, a missing nvcc
# is one line, a missing NCCL leaves multi_gpu out with one line, and make help names every target.
. tests/tap.sh
command -v nvcc >/dev/null || skip_all "nvcc is not on PATH"
unset MAKEFLAGS MFLAGS MAKELEVEL  # run from make test: the sub-makes below are top-level ones
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
line=$(cd "$tmp" && make -n ARCH=80 NVCCFLAGS=-DCOURSE_TEST HOST_COMPILER=g++ $p | grep "add_scalars.cu")
echo "$line" | grep -q -- "-O3.*-gencode arch=compute_80.*-ccbin g++.*-DCOURSE_TEST"
ok $? "NVCCFLAGS= adds after the course's flags (-gencode, -O3 kept), HOST_COMPILER= gives -ccbin" "$line"
out=$(cd "$tmp" && PATH=/usr/bin:/bin make NVCC=/nonexistent/nvcc $p 2>&1)
[ "$(echo "$out" | grep -c .)" -eq 1 ] && echo "$out" | grep -q "nvcc not found"
ok $? "without nvcc: one line that says so" "$out"
out=$(NCCL_HOME=/nonexistent make -n all 2>&1)
[ "$(echo "$out" | grep -c "no NCCL found")" -eq 1 ] && ! echo "$out" | grep -q "multi_gpu.cu"
ok $? "without NCCL: one line, and multi_gpu is not built" "$(echo "$out" | grep -i nccl | head -n 3)"
help=$(make help)
missing=""
for target in all test sanitize small-gpu fuzz figures notebook colab sass ptx profile compile_commands.json clean; do
    echo "$help" | grep -q -- "$target" || missing="$missing $target"
done
for knob in ARCH DEBUG NVCCFLAGS EXTRA_NVCCFLAGS HOST_COMPILER NVCC NCCL_HOME; do
    echo "$help" | grep -q -- "$knob" || missing="$missing $knob"
done
[ -z "$missing" ]
ok $? "make help names every target and knob" "missing:$missing"
done_testing
