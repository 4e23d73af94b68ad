#!/bin/sh
# The course on the GPUs students have, emulated on a big one: `make small-gpu`, or
#   sh tests/small_gpu.sh [OUT [EMULATION...]]     EMULATION: gtx1650 t4 full (default: all three)
# CUDA's Multi-Process Service (MPS) gives each client program a share of the SMs
# (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) and a cap on device memory (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT):
#   gtx1650  14 SMs and 4 GiB, a GTX 1650-class laptop card; also a 2 GiB card for the sizes that shrink
#   t4       40 SMs and 15 GiB, a Colab T4-class card
#   full     the whole GPU (still through MPS)
# Under each: `make test`, the README's quick start and every program's default run must exit 0 with
# "check: PASS", and every lab's solution must pass `make labs SOLUTIONS=1`. PARTS="labs" (or any of
# "test programs labs") runs only those parts. Results: OUT/small_gpu.md (program x emulation: exit
# status, size used, seconds; it merges the emulations run so far), OUT/EMULATION/*.log, and
# OUT/EMULATION/calls.tsv (when, GPU, driver, CUDA, parts: one line a call). Exit status 0
# when everything passed. KEEP=1 keeps what an earlier call left in OUT/EMULATION, this call's rows
# replacing the same rows of it: a run in parts (PARTS, PROGRAMS) where one call has a time limit.
#
# What MPS does not emulate: the architecture. An H100 or H200 held to 14 SMs is still sm_90: 2048
# resident threads and 228 KiB of shared memory per SM, 128 FP32 lanes, its whole L2 (50 or 60 MB) and
# HBM shared by the SMs it gives (far more bandwidth than a GTX 1650's 128 GB/s), its clocks, PCIe link
# and copy engines. sm_75's
# limits are covered by compiling for it (tests/turing.t). What MPS does badly: a client killed mid-run
# can leave the server refusing new clients (cudaErrorDevicesUnavailable); then this script restarts the
# daemon and runs the program again rather than report a false failure.
set -u
root=$(pwd)
out=${1:-output/small_gpu}
[ $# -gt 0 ] && shift
emulations=${*:-gtx1650 t4 full}
parts=" ${PARTS:-test programs labs} "
case "$out" in /*) ;; *) out="$root/$out" ;; esac
PROGRAMS_GIVEN=${PROGRAMS:-}
[ -n "${PROGRAMS:-}" ] || PROGRAMS=$(make -s -f Makefile -f - print-programs <<'EOF'
print-programs: ; @echo $(PROGRAMS)
EOF
)
command -v nvidia-cuda-mps-control >/dev/null || { echo "1..0 # SKIP no nvidia-cuda-mps-control (MPS)"; exit 0; }
nvidia-smi -L >/dev/null 2>&1 || { echo "1..0 # SKIP no GPU"; exit 0; }
make -s all >/dev/null || { echo "Bail out! the build failed"; exit 1; }

tmp=$(mktemp -d)
mkdir -p "$tmp/work" "$out"
. "$root/tests/mps.sh"
trap 'mps_stop; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mps_start "$tmp"

. "$root/tests/tap.sh"
# run NAME SECONDS COMMAND...: runs a client, restarting the server once if it refused the client.
# Sets code, seconds; the output is in $log.
run() {
    log=$1; shift
    for attempt in 1 2; do
        start=$(date +%s.%N)
        (cd "$tmp/work" && timeout 300 "$@") </dev/null >"$log" 2>&1
        code=$?
        seconds=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.0f", $2 - $1 }')
        if [ $code = 124 ] || grep -q -e cudaErrorDevicesUnavailable -e "busy or unavailable" "$log"; then
            echo "# MPS: restarting the daemon after: $* (exit $code)"
            mps_stop
            mps_start "$tmp"
            [ $code = 124 ] && break  # a time-out is a real failure; the restart is for the next program
            continue
        fi
        break
    done
}
passed() { [ "$code" = 0 ] && grep -q "^check: PASS" "$log" && ! grep -q "^check: FAIL" "$log"; }
size_used() { sed -n 's/^note: the default .*: using \(.*\) instead$/\1/p' "$1" | head -n 1; }

sms=$(cd "$tmp/work" && "$root/ch1_embarrassing/device_query" | sed -n 's/^streaming multiprocessors (SMs) *//p')
[ -n "$sms" ] || { echo "Bail out! device_query failed"; exit 1; }

for emulation in $emulations; do
    mps_emulate "$emulation" "$sms" || { echo "Bail out! unknown emulation $emulation (gtx1650, t4 or full)"; exit 2; }
    dir="$out/$emulation"
    [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
    mkdir -p "$dir"
    results="$dir/results.part"  # this call's rows, merged into results.tsv at the end
    run "$dir/device_query.log" "$root/ch1_embarrassing/device_query"
    seen=$(grep -E "^device 0:" "$dir/device_query.log")
    ok $code "$emulation: the GPU as a client sees it: ${seen#device 0: }"
    # Which calls made this emulation's results (several with KEEP=1): when, the GPU, its driver, the
    # CUDA runtime and the parts run. The README's account of the run is rendered from these lines.
    printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" \
        "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 | sed 's/, /\t/')" \
        "$(sed -n 's/^driver \/ runtime *CUDA .* \/ \(.*\)$/CUDA \1/p' "$dir/device_query.log")" \
        "$(echo $parts) ${PROGRAMS_GIVEN:+(some programs)}" >>"$dir/calls.tsv"

    : >"$results"
    # make test, as a student would type it, every GPU run a client of the restricted server.
    case $parts in *" test "*)
    start=$(date +%s)
    make test >"$dir/make_test.log" 2>&1
    code=$?
    ok $code "$emulation: make test ($(grep -E '^(Files=|Result)' "$dir/make_test.log" | tr '\n' ' '))" \
        "$(grep -E '^not ok|Failed' "$dir/make_test.log" | head -n 20)"
    printf 'make test\t%s\t-\t%s\n' "$code" "$(( $(date +%s) - start ))" >>"$results"
    esac

    # The labs' solutions, checked (compute-sanitizer too: it runs under MPS) and timed against
    # themselves.
    case $parts in *" labs "*)
    start=$(date +%s)
    LABS_WORKERS=1 make labs SOLUTIONS=1 CSV="$dir/labs.csv" >"$dir/make_labs.log" 2>&1
    code=$?
    ok $code "$emulation: make labs SOLUTIONS=1, every lab PASS" \
       "$(grep -E 'FAIL|slow' "$dir/make_labs.log" | head -n 12)"
    printf 'make labs SOLUTIONS=1\t%s\t-\t%s\n' "$code" "$(( $(date +%s) - start ))" >>"$results"
    esac
    case $parts in *" programs "*)

    # The README's quick start, then every program's default run, in a scratch folder (their output/).
    run "$dir/quick_start.log" sh -c "cd '$root' && make -s ch2 && ./ch2_reduction/better"
    passed
    ok $? "$emulation: quick start, make ch2 && ./ch2_reduction/better, in $seconds s" "$(tail -n 5 "$log")"
    printf 'quick start (better)\t%s\t%s\t%s\n' "$code" "$(size_used "$log")" "$seconds" >>"$results"
    for p in $PROGRAMS; do
        [ "$p" = ch2_reduction/better ] && continue  # the quick start
        run "$dir/$(echo "$p" | tr / _).log" "$root/$p"
        passed
        status=$?
        size=$(size_used "$log")
        ok $status "$emulation: $p, default run, in $seconds s${size:+, with }$size" "exit $code: $(tail -n 5 "$log")"
        printf '%s\t%s\t%s\t%s\n' "$p" "$code" "$size" "$seconds" >>"$results"
    done

    if [ "$emulation" = gtx1650 ]; then
        # A 2 GiB card: the article's defaults no longer fit. They shrink, said in one line, and run;
        # an explicit size that does not fit ends with exit 1 and what is needed and free.
        CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=2G
        for p in "ch2_reduction/better -r 3" "ch5_matmul/blas -r 1"; do
            run "$dir/2gib_$(echo "$p" | tr '/ ' '__').log" "$root/${p%% *}" ${p#* }
            passed && [ -n "$(size_used "$log")" ]
            ok $? "2 GiB card: $p shrinks its default to $(size_used "$log") and passes" \
               "exit $code: $(tail -n 5 "$log")"
            printf '%s (2 GiB)\t%s\t%s\t%s\n' "$p" "$code" "$(size_used "$log")" "$seconds" >>"$results"
        done
        run "$dir/2gib_explicit.log" "$root/ch2_reduction/better" -n 1e9 -r 1
        [ "$code" = 1 ] && grep -q "^not enough memory on .*: -n 1000000000 needs .* the largest -n that fits is" "$log"
        ok $? "2 GiB card: better -n 1e9 (given, too large) exits 1 saying what fits" "exit $code: $(cat "$log")"
        printf 'better -n 1e9 (2 GiB)\t%s\texit 1 expected\t%s\n' "$code" "$seconds" >>"$results"
    fi
    esac

    # This call's rows replace the same rows of an earlier call (KEEP=1); the others stay, new ones last.
    touch "$dir/results.tsv"
    awk -F'\t' 'NR == FNR { row[$1] = $0; order[++n] = $1; next }
                $1 in row { print row[$1]; printed[$1] = 1; next }
                { print }
                END { for (i = 1; i <= n; i++) if (!(order[i] in printed)) print row[order[i]] }' \
        "$results" "$dir/results.tsv" >"$dir/results.merged" && mv "$dir/results.merged" "$dir/results.tsv"
    rm -f "$results"
done

# The table: one row per program, one column per emulation run so far (exit status, size, seconds).
{
    columns=$(ls "$out"/*/results.tsv | sed "s|$out/||; s|/results.tsv||" | tr '\n' '|' | sed 's/|$//; s/|/ | /g')
    echo "| program | $columns |"
    echo "|---$(ls "$out"/*/results.tsv | sed 's/.*/|---/' | tr -d '\n')|"
    cat "$out"/*/results.tsv | cut -f1 | awk '!seen[$0]++' | while read -r name; do
        printf '| %s ' "$name"
        for f in "$out"/*/results.tsv; do
            awk -F'\t' -v n="$name" '
                $1 == n { s = $3 == "" ? "default" : $3; printf "| %s, %s, %s s ", $2, s, $4; found = 1 }
                END { if (!found) printf "| - " }' "$f"
        done
        echo "|"
    done
} >"$out/small_gpu.md"
echo "# exit status, size used, seconds; table in $out/small_gpu.md"
done_testing
