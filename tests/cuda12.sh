#!/bin/sh
# tests/cuda12.sh: build every program and run `make test` with CUDA 12.4, the toolkit of Debian 13
# (trixie, nvidia-cuda-toolkit 12.4.131), in a throwaway root made by debootstrap, so that the course
# keeps building with CUDA 12 as well as 13. The root gets Open MPI and Debian's NCCL too, so that
# heat_mpi and multi_gpu are built and checked there. Needs root, debootstrap and the network; no GPU
# (the GPU tests skip, as in CI). The first run downloads the toolkit (gigabytes); the root is kept in
# CUDA12_ROOT (default /var/tmp/cuda12-root) and reused, `sh tests/cuda12.sh --fresh` remakes it. How
# long it took, with the date, the toolkit and make test's summary, goes to figures/data/cuda12/run.log,
# which keeps the last run with a fresh root and the last with a reused one.
#   sudo sh tests/cuda12.sh            exit 0 when the build and make test pass under CUDA 12.4
set -eu
root=${CUDA12_ROOT:-/var/tmp/cuda12-root}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "cuda12.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "cuda12.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ "${1:-}" = --fresh ] && rm -rf "$root"
fresh=reused
[ -f "$root/.ready" ] || fresh=fresh

if [ ! -f "$root/.ready" ]; then
    echo "cuda12.sh: making a Debian trixie root in $root"
    rm -rf "$root"
    debootstrap --variant=minbase --components=main,contrib,non-free,non-free-firmware trixie "$root" "$mirror" \
        >"$root.debootstrap.log" 2>&1 || { tail -n 20 "$root.debootstrap.log"; exit 1; }
    touch "$root/.ready"
fi
# nvcc 12.4 with the g++ it supports; make, perl's prove, gnuplot, python3 and nbformat (the notebook's
# schema check) as the course's tests need;
# Open MPI and NCCL for heat_mpi and multi_gpu (installed when one is missing, so that a root made by an
# older version of this script is completed).
packages="nvidia-cuda-toolkit make gcc g++ perl gnuplot-nox python3 python3-nbformat"
packages="$packages libopenmpi-dev openmpi-bin libnccl-dev"
if ! chroot "$root" dpkg -s $packages >/dev/null 2>&1; then
    chroot "$root" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages" \
        >"$root.apt.log" 2>&1 || { tail -n 20 "$root.apt.log"; exit 1; }
fi

# The course as it is in this working tree (tracked and new files, not build outputs).
rm -rf "$root/course"
mkdir -p "$root/course"
git ls-files -co --exclude-standard | grep -v '^\.dev/' | tar -cf - -T - | tar -xf - -C "$root/course"

mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
status=0
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c '
    cd /course && nvcc --version | tail -n 2 && make -j"$(nproc)" all tests/unit_common >build.log 2>&1 ||
        { tail -n 30 build.log; exit 1; }
    make test >test.log 2>&1; status=$?
    grep -E "^(not ok|#)" test.log | head -n 40; tail -n 4 test.log; exit $status' || status=$?
seconds=$(( $(date +%s) - start ))

# The record of this run, for the README: when, how long, the toolkit, what make left out and make test's
# verdict. It replaces the record of the last run of its kind (a fresh root, or a reused one).
record=figures/data/cuda12/run.log
mkdir -p "$(dirname "$record")"
{
    [ -f "$record" ] &&
        awk -v kind="a $fresh root" '/^# tests\/cuda12.sh/ { keep = index($0, kind) == 0 } keep' "$record"
    echo "# tests/cuda12.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, a $fresh root: exit $status in $seconds s"
    chroot "$root" nvcc --version | tail -n 2
    grep -q '^make: no ' "$root/course/test.log" 2>/dev/null || echo "make: every program built (MPI and NCCL found)"
    grep -E '^(make: |make test: |Files=|Result: )' "$root/course/test.log" 2>/dev/null
} >"$record.new"
mv "$record.new" "$record"
[ $status = 0 ] || { echo "cuda12.sh: make test failed under CUDA 12.4 (the log: $root/course/test.log)"; exit 1; }
echo "cuda12.sh: CUDA 12.4 build and make test passed in $seconds s ($record)"
