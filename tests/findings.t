#!/bin/sh
# labs/findings.awk: compute-sanitizer's report as labs/grade prints it, a line a distinct finding, with how
# many times it was found and, where memcheck names them, the first one's thread, block and place against
# the nearest allocation or its alignment (the addresses left out). No GPU: a report in memcheck's and
# racecheck's words, then one in initcheck's, then memcheck's on a misaligned address, then synccheck's on a
# barrier that only some threads of a warp reached.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/log" <<'LOG'
========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at adjust_log(const float *, float *, int, int)+0x2b0 in /tmp/grade/ch1_debug_bounds.cu:31
=========     by thread (255,0,0) in block (3,0,0)
=========     Address 0x7f0e5e000fa0 is out of bounds
=========     and is 4 bytes after the nearest allocation at 0x7f0e5e000000 of size 4000 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2d5e5f] in libcuda.so.1
=========
========= Invalid __global__ write of size 4 bytes
=========     at adjust_log(const float *, float *, int, int)+0x2b0 in /tmp/grade/ch1_debug_bounds.cu:31
=========     by thread (254,0,0) in block (3,0,0)
=========     Address 0x7f0e5e000fa4 is out of bounds
=========     and is 8 bytes after the nearest allocation at 0x7f0e5e000000 of size 4000 bytes
=========
========= Invalid __global__ read of size 4 bytes
=========     at adjust_log(const float *, float *, int, int)+0x1a0 in /tmp/grade/ch1_debug_bounds.cu:27
=========     by thread (7,0,0) in block (0,0,0)
=========     Address 0x7f0e5e100000 is out of bounds
=========     and is 12 bytes before the nearest allocation at 0x7f0e5e10000c of size 64 bytes
=========
========= Race reported between Write access at transpose(float *)+0x90 in /tmp/grade/t.cu:15
=========     and Read access at transpose(float *)+0xb0 in /tmp/grade/t.cu:21 [128 hazards]
=========
========= ERROR SUMMARY: 3 errors
LOG
awk -v here=/tmp/grade/ -f labs/findings.awk "$tmp/log" >"$tmp/lines"
first="Invalid __global__ write of size 4 bytes in adjust_log (ch1_debug_bounds.cu:31) [x2]; the first: thread"
first="$first (255,0,0) in block (3,0,0), 4 bytes after the nearest allocation, of 4000 bytes"
[ "$(sed -n 1p "$tmp/lines")" = "$first" ]
ok $? "a finding twice: one line, [x2], the first one's thread, block and place" "$(cat "$tmp/lines")"
second="Invalid __global__ read of size 4 bytes in adjust_log (ch1_debug_bounds.cu:27); the first: thread (7,0,0)"
second="$second in block (0,0,0), 12 bytes before the nearest allocation, of 64 bytes"
grep -q -x -F "$second" "$tmp/lines"
ok $? "another line of the same kernel: a finding of its own, before its allocation" "$(cat "$tmp/lines")"
grep -q -x "shared-memory race in transpose (write at t.cu:15 and read at t.cu:21)" "$tmp/lines"
ok $? "a race: both accesses' places, no thread named" "$(cat "$tmp/lines")"
[ "$(wc -l <"$tmp/lines")" = 3 ] && ! grep -q '0x7f' "$tmp/lines"
ok $? "three findings, the summary and banner none; no address" "$(cat "$tmp/lines")"

# initcheck: NVIDIA's example of the tool (the compute-sanitizer-samples repository, Initcheck/memset_error.cu;
# Compute Sanitizer's manual runs it): 2 blocks of 32 threads add to 64 ints, of which a cudaMemset given
# 64 bytes, not 64 ints, wrote the first 16; each of the other 48 threads reads an int never written
# (v[tx] += tx, line 41). Its report in the tool's words, a finding a thread; then a CUDA call's reading of
# memory never written (a copy's source), as cudf's issue 19987 quotes initcheck's report of one.
{
    echo "========= COMPUTE-SANITIZER"
    for t in $(seq 16 63); do
        printf '========= Uninitialized __global__ memory read of size 4 bytes\n'
        printf '=========     at vectorAdd(int *)+0x70 in /home/cuda/memset_error.cu:41\n'
        printf '=========     by thread (%d,0,0) in block (%d,0,0)\n' $((t % 32)) $((t / 32))
        printf '=========     Address 0x7f6c4d0000%02x\n' $((4 * t))
        printf '=========     Saved host backtrace up to driver entry point at kernel launch time\n'
        printf '=========         Host Frame: cudaLaunchKernel [0x4f3b7] in libcudart.so.13\n'
        printf '=========         Host Frame: main [0x9a2c] in memset_error\n'
        printf '=========\n'
    done
    printf '========= Host API memory access error at host access to 0x77cfa2a7dc00 of size 3,840 bytes\n'
    printf '=========     Uninitialized access to 0x77cfa2a7dce0 on access by cudaMemcpy source\n'
    printf '=========     Saved host backtrace up to driver entry point at error\n'
    printf '=========         Host Frame: cudaMemcpy [0x2e90bc] in libcudart.so.13\n'
    printf '=========\n'
    echo "========= ERROR SUMMARY: 49 errors"
} >"$tmp/initcheck.log"
awk -v here=/home/cuda/ -f labs/findings.awk "$tmp/initcheck.log" >"$tmp/lines"
first="Uninitialized __global__ memory read of size 4 bytes in vectorAdd (memset_error.cu:41) [x48]; the first:"
first="$first thread (16,0,0) in block (0,0,0)"
[ "$(sed -n 1p "$tmp/lines")" = "$first" ]
ok $? "initcheck: a read of memory never written, 48 times: one line, the kernel, its line and the first thread" \
   "$(cat "$tmp/lines")"
[ "$(sed -n 2p "$tmp/lines")" = \
  "Host API memory access error of size 3,840 bytes (uninitialized, read by cudaMemcpy source)" ]
ok $? "initcheck: a call that read memory never written is named by the call, with no kernel" "$(cat "$tmp/lines")"
[ "$(wc -l <"$tmp/lines")" = 2 ] && ! grep -q '0x' "$tmp/lines"
ok $? "initcheck: two findings, no address, no host frame" "$(cat "$tmp/lines")"

# memcheck on a 16-byte load from an address that is not a multiple of 16, in its words as the issue
# AyakaGEMM/Hands-on-GEMM#11 quotes them (a float4 read from shared memory): the place is the address's
# alignment, not a distance from an allocation (ch3_debug_async's lesson).
{
    echo "========= COMPUTE-SANITIZER"
    echo "========= Invalid __shared__ read of size 16 bytes"
    printf '=========     at %s+0x7120 in %s\n' \
        "matrixMul(const float *, const float *, float *, int, int, int, float, float)" \
        /home/tpy/gitcode/Hands-on-GEMM/src/cuda/pipeline_gemm.cu:94
    echo "=========     by thread (0,4,0) in block (0,0,0)"
    echo "=========     Address 0x10a8 is misaligned"
    echo "=========     Saved host backtrace up to driver entry point at kernel launch time"
    echo "=========     Host Frame: [0x23b3b7]"
    echo "=========                in /usr/lib/wsl/drivers/nv_dispig.inf_amd64_0afec3f2050014a0/libcuda.so.1.1"
    echo "========="
    echo "========= ERROR SUMMARY: 1 error"
} >"$tmp/misaligned.log"
awk -v here=/home/tpy/gitcode/Hands-on-GEMM/ -f labs/findings.awk "$tmp/misaligned.log" >"$tmp/lines"
[ "$(cat "$tmp/lines")" = "Invalid __shared__ read of size 16 bytes in matrixMul (src/cuda/pipeline_gemm.cu:94); the \
first: thread (0,4,0) in block (0,0,0), at a misaligned address" ]
ok $? "memcheck: a misaligned 16-byte read, its kernel and line, the first thread, the address said misaligned" \
   "$(cat "$tmp/lines")"

# synccheck on a __syncthreads() that only some threads of a warp reach (ch2_debug_divergent's lesson), in
# its words as the README of Yapeng-Gao/AI-System-Performance-Lab's examples/01_cuda_basics quotes a run on
# an RTX 5090 (its 09_debug_and_sanitizer.cu at ee4c46e: the odd threads of one warp call __syncthreads()
# inside an if, line 61, the even ones skip it and end), the findings it shows, the tool's lines alone. The
# course's own run on an H200 (figures/data/labs/gpu_run_20261128.txt) met the same first line, "in block."
# where whole warps stood at another barrier.
{
    echo "========= COMPUTE-SANITIZER"
    for t in 19 21 23 25 27 29 31; do
        echo "========= Barrier error detected. Divergent thread(s) in warp."
        echo "=========     at illegal_sync_kernel(int *)+0xa0 in 09_debug_and_sanitizer.cu:61"
        echo "=========     by thread ($t,0,0) in block (0,0,0)"
        echo "=========     Saved host backtrace up to driver entry point at kernel launch time"
        echo "=========         Host Frame: main [0x1754] in 01_cuda_basics_09_debug_and_sanitizer"
        echo "========="
    done
    echo "========= Target application returned an error"
    echo "========= ERROR SUMMARY: 16 errors"
} >"$tmp/synccheck.log"
awk -v here=/data/AI-System-Performance-Lab/examples/01_cuda_basics/ -f labs/findings.awk "$tmp/synccheck.log" \
    >"$tmp/lines"
[ "$(cat "$tmp/lines")" = "Barrier error detected. Divergent thread(s) in warp. in illegal_sync_kernel \
(09_debug_and_sanitizer.cu:61) [x7]; the first: thread (19,0,0) in block (0,0,0)" ]
ok $? "synccheck: a barrier some threads skip, one line: its kernel and line, how often, the first thread" \
   "$(cat "$tmp/lines")"
done_testing
