#!/bin/sh
# One call on a GPU machine does a whole session's work and keeps every log:
#   sh tests/device_session.sh DIR [make-targets...]
# builds everything, runs `make test`, each line of tests/benchmarks.txt, then `make sanitize`
# (unless SANITIZE=0), writing DIR/build.log, DIR/test.log, DIR/bench.log, DIR/sanitize.log and
# DIR/summary.txt. Exit status: 0 when the build, the tests and the sanitizer all passed.
# A device call that ends at ten minutes cannot hold it all on one GPU: cut it in parts with make's
# own knobs, read from the environment (TESTS= some test files, LAB_SUBSET= the labs tests/labs.t
# grades on the GPU), BENCH=0 (no benchmarks) and SANITIZE=0, e.g.
#   TESTS="$(ls tests/*.t | grep -v labs.t | tr '\n' ' ')" SANITIZE=0 BENCH=0 sh tests/device_session.sh out/1
#   TESTS=tests/labs.t LAB_SUBSET="$(make -s lab-list | cut -d' ' -f1-15)" SANITIZE=0 BENCH=0 \
#       sh tests/device_session.sh out/2
# On a machine of four GPUs, tests/device_parallel.sh runs the parts side by side instead.
set -u
out=${1:?usage: tests/device_session.sh DIR}
mkdir -p "$out"
status=0
{ nvidia-smi; nvcc --version; } >"$out/machine.txt" 2>&1
start=$(date +%s)
make -j"$(nproc)" all tests/unit_common >"$out/build.log" 2>&1
build=$?
[ $build = 0 ] || status=1
echo "build: exit $build in $(( $(date +%s) - start )) s" >"$out/summary.txt"
make test >"$out/test.log" 2>&1 || status=1
echo "make test: $(grep -E '^(Result|Files=)' "$out/test.log" | tr '\n' ' ')" >>"$out/summary.txt"
[ "${BENCH:-1}" = 0 ] || grep -v '^[[:space:]]*\(#\|$\)' tests/benchmarks.txt | while read -r line; do
    echo "=== $line"
    [ -x "./${line%% *}" ] || { echo "=== skipped: not built (no MPI or NCCL: make said why)"; continue; }
    t0=$(date +%s)
    timeout 300 ./$line </dev/null 2>&1  # a hang fails this line, not the whole session
    echo "=== exit $? in $(( $(date +%s) - t0 )) s"
done >"$out/bench.log" 2>&1
grep -c "^=== exit 0" "$out/bench.log" | sed 's/^/benchmarks exiting 0: /' >>"$out/summary.txt"
if [ "${SANITIZE:-1}" != 0 ]; then
    t0=$(date +%s)
    make sanitize >"$out/sanitize.log" 2>&1 || status=1
    echo "make sanitize ($(( $(date +%s) - t0 )) s): $(grep -E '^(Result|Files=)' "$out/sanitize.log" | tr '\n' ' ')" \
        >>"$out/summary.txt"
fi
cat "$out/summary.txt"
exit $status
