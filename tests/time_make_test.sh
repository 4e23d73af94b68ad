#!/bin/sh
# tests/time_make_test.sh: how long a newcomer waits on this machine, recorded for the README: a clean
# build (make -j$(nproc) all), the first make test (which also builds and grades every lab's file: on a
# machine without a GPU, compiles them and checks their rules), then make test again, everything built.
# Appends to figures/data/make_test/run.log the date, the machine (cores, GPU or none, MPI, gnuplot),
# each time and make test's summary lines. Run from the course's root: sh tests/time_make_test.sh
set -u
log=figures/data/make_test/run.log
mkdir -p "$(dirname "$log")"
cores=$(nproc)
gpu=$(nvidia-smi -L 2>/dev/null | head -n 1 | sed 's/ (UUID.*//'); gpu=${gpu:-no GPU}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
    echo "# make clean; make -j$cores all; make test; make test, $(date -u '+%Y-%m-%dT%H:%MZ'), $cores cores, $gpu"
    nvcc --version | tail -n 1
    echo "# MPI: $(command -v mpicc || echo none); gnuplot: $(command -v gnuplot || echo none);" \
        "load average $(cut -d' ' -f1 /proc/loadavg)"
} >>"$log"
make -s clean >/dev/null 2>&1
t0=$(date +%s); make -s -j"$cores" all >"$out" 2>&1; code=$?
echo "make -j$cores all: exit $code in $(( $(date +%s) - t0 )) s" >>"$log"
for run in "the first, which also builds the labs' programs and grades every lab's file" "again, everything built"; do
    t0=$(date +%s); make test >"$out" 2>&1; code=$?
    echo "make test ($run): exit $code in $(( $(date +%s) - t0 )) s" >>"$log"
    grep -E '^(Files=|Result|make test: )' "$out" >>"$log"
done
tail -n 9 "$log"
