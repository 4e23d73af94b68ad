#!/bin/sh
# labs/runner_check.sh (make runner-check): on the machine of a self-hosted runner for GitHub Classroom's
# workflow (labs/README.md, "GitHub Classroom"), what a grade needs and whether this machine has it, one
# line each, "ok" or "missing" and how to get it. Exit 0 when every lab can be graded here, else 1.
#   sh labs/runner_check.sh
# It looks as the workflow's tests do: autograding-command-grader gives its command PATH and HOME and no
# other variable (its src/main.js), so NCCL_HOME, MPI_HOME, COMPUTE_SANITIZER and LAB_BWRAP set in a shell
# do not reach a grade there; and actions/checkout empties the folder's ignored files before each run (git
# clean -ffdx), so a tool that tests/install_tools.sh put in .tools/bin is not there for the next grade.
if [ -z "${RUNNER_CHECK_AS_GRADER:-}" ]; then
    exec env -i PATH="$PATH" HOME="${HOME:-/}" RUNNER_CHECK_AS_GRADER=1 sh "$0" "$@"
fi
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lacking=0
has() { printf 'ok       %s\n' "$*"; }
lacks() { printf 'missing  %s\n' "$*"; lacking=$((lacking + 1)); }
# in_tools PATH: the tool is one of tests/install_tools.sh's, which the next checkout removes.
in_tools() { case $1 in "$root"/.tools/*) return 0 ;; esac; return 1; }
echo "runner-check: what a grade needs, looked for as the workflow's tests look (PATH and HOME alone)"

# The GPU, through the driver's own tool (as tests/tap.sh's have_gpu).
if ! command -v nvidia-smi >/dev/null 2>&1; then
    lacks "GPU: no GPU (no nvidia-smi: no NVIDIA driver); every grade is 77, not run: install the NVIDIA driver" \
        "on a machine with an NVIDIA GPU"
elif ! nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader >"$tmp/gpu" 2>&1 ||
        ! grep -q . "$tmp/gpu"; then
    lacks "GPU: no GPU (nvidia-smi: $(head -n 1 "$tmp/gpu")); every grade is 77, not run: the NVIDIA driver" \
        "must see the GPU (nvidia-smi -L)"
else
    IFS=, read -r name capability driver <"$tmp/gpu"
    has "GPU: $name, compute capability$capability, driver$driver ($(grep -c . "$tmp/gpu") GPU(s))"
    # (labs/judge/ch5_mma.cu: lab_cannot_run under compute capability 8.0)
    awk -v c="$capability" 'BEGIN { exit !(c + 0 < 8) }' &&
        lacks "ch5_mma: needs TF32 tensor cores, compute capability 8.0 or newer; 77 here, not run"
fi

# make, and the course's settings from it: nvcc, compute-sanitizer, cuobjdump (make lab-settings).
command -v make >/dev/null 2>&1 || { lacks "make: not found: apt-get install make"; exit 1; }
if ! make -s -C "$root" --no-print-directory lab-settings >"$tmp/settings" 2>"$tmp/make.why"; then
    lacks "nvcc: $(grep -m 1 'nvcc' "$tmp/make.why" || head -n 1 "$tmp/make.why")"
    echo "runner-check: compute-sanitizer, cuobjdump, MPI and NCCL not looked for: make needs nvcc first"
    exit 1
fi
setting() { sed -n "s/^$1: *//p" "$tmp/settings" | head -n 1; }
nvcc=$(setting nvcc)
has "nvcc: ${nvcc%% *} ($("${nvcc%% *}" --version 2>/dev/null | grep -o 'release [0-9.]*'))"
sanitizer=$(setting sanitizer)
if [ -n "$sanitizer" ] && "$sanitizer" --version >/dev/null 2>&1; then
    has "compute-sanitizer: $sanitizer (make lab-sanitizer)"
else
    lacks "compute-sanitizer: none that runs (make lab-sanitizer: '$sanitizer'); every right file would get 4," \
        "NOT GRADED: install the CUDA Toolkit whole (NVIDIA's cuda-toolkit package; nvcc alone lacks it)"
fi
cuobjdump=$(setting cuobjdump)
nvdisasm=$(dirname "${cuobjdump:-/nonexistent}")/nvdisasm
[ -x "$nvdisasm" ] || nvdisasm=$(command -v nvdisasm || echo "")
if [ -z "$cuobjdump" ] || ! "$cuobjdump" --version >/dev/null 2>&1 || [ -z "$nvdisasm" ]; then
    lacks "cuobjdump and nvdisasm: none that runs (make lab-cuobjdump: '$cuobjdump'); labs/grade stops, exit 2:" \
        "install the CUDA Toolkit's (NVIDIA's cuda-cuobjdump and cuda-nvdisasm packages) or put them on PATH"
elif in_tools "$cuobjdump"; then
    lacks "cuobjdump and nvdisasm: only in .tools/bin, which each checkout removes: install the CUDA Toolkit's" \
        "(NVIDIA's cuda-cuobjdump and cuda-nvdisasm packages) or copy them to a folder on the runner's PATH"
else
    has "cuobjdump and nvdisasm: $cuobjdump, $nvdisasm (make lab-cuobjdump)"
fi

# The sandbox, tried as labs/grade tries it (labs/steps/run.sh, sourced: it only sets $bwrap and $sandbox_why).
. "$root/labs/steps/run.sh"
if [ -n "$sandbox_why" ]; then
    lacks "sandbox: $sandbox_why; every grade would be 4, NOT GRADED: $sandbox_how"
elif in_tools "$bwrap"; then
    lacks "sandbox: bwrap only in .tools/bin, which each checkout removes: apt-get install bubblewrap"
else
    has "sandbox: $bwrap makes a sandbox here (labs/steps/run.sh's test)"
fi

# The labs that link a library (labs/rules.txt "LAB link LIB"): make lab-flags-LIB has a link: line
# where make found it; without it the lab is 77, not run.
library() {  # library LIB LAB HOW
    if make -s -C "$root" --no-print-directory "lab-flags-$1" 2>/dev/null | grep -q '^link: *[^ ]'; then
        has "$1, for $2: found (make lab-flags-$1)"
    else
        lacks "$1, for $2: not found (make lab-flags-$1 has no link: line); $2 is 77, not run: $3"
    fi
}
library mpi ch3_halo "apt-get install libopenmpi-dev openmpi-bin (mpicc on PATH)"
library nccl ch3_allreduce "NVIDIA's libnccl-dev, or python3 -m pip install nvidia-nccl-cu12 as the runner's user"

if [ $lacking -eq 0 ]; then
    echo "runner-check: every lab can be graded here"
else
    echo "runner-check: $lacking missing: not every lab can be graded here"
    exit 1
fi
