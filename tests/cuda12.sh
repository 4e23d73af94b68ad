#!/bin/sh
# tests/cuda12.sh: build every program and run `make test` with CUDA 12.4, the toolkit of Debian 13
# (trixie, nvidia-cuda-toolkit 12.4.131), in a throwaway root made by debootstrap, so that the course
# keeps building with CUDA 12 as well as 13. Needs root, debootstrap and the network; no GPU (the GPU
# tests skip, as in CI). The first run downloads about 2 GB and takes 10 to 20 minutes; the root is
# kept in CUDA12_ROOT (default /var/tmp/cuda12-root) and reused, `sh tests/cuda12.sh --fresh` remakes it.
#   sudo sh tests/cuda12.sh            exit 0 when the build and make test pass under CUDA 12.4
set -eu
root=${CUDA12_ROOT:-/var/tmp/cuda12-root}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "cuda12.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "cuda12.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ "${1:-}" = --fresh ] && rm -rf "$root"

if [ ! -f "$root/.ready" ]; then
    echo "cuda12.sh: making a Debian trixie root in $root"
    rm -rf "$root"
    debootstrap --variant=minbase --components=main,contrib,non-free,non-free-firmware trixie "$root" "$mirror" \
        >"$root.debootstrap.log" 2>&1 || { tail -n 20 "$root.debootstrap.log"; exit 1; }
    touch "$root/.ready"
fi
# nvcc 12.4 with the g++ it supports; make, perl's prove, gnuplot and python3 as the course's tests need
# (installed when one is missing, so that a root made by an older version of this script is completed).
packages="nvidia-cuda-toolkit make gcc g++ perl gnuplot-nox python3"
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
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c '
    cd /course && nvcc --version | tail -n 2 && make -j"$(nproc)" all tests/unit_common >build.log 2>&1 ||
        { tail -n 30 build.log; exit 1; }
    make test >test.log 2>&1; status=$?
    grep -E "^(not ok|#)" test.log | head -n 40; tail -n 4 test.log; exit $status' ||
    { echo "cuda12.sh: make test failed under CUDA 12.4 (the log: $root/course/test.log)"; exit 1; }
echo "cuda12.sh: CUDA 12.4 build and make test passed in $(( $(date +%s) - start )) s"
