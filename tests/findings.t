#!/bin/sh
# labs/findings.awk: compute-sanitizer's report as labs/grade prints it, a line a distinct finding, with how
# many times it was found and, where memcheck names them, the first one's thread, block and place against
# the nearest allocation (the addresses left out). No GPU: a report in memcheck's and racecheck's words.
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
done_testing
