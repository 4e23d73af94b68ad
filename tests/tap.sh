# tap.sh: the few TAP helpers the .t scripts share (sourced, not run).
count=0
failed=0
ok() {  # ok CONDITION-EXIT-STATUS NAME [DIAGNOSTIC]
    count=$((count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $count - $2"
    else
        echo "not ok $count - $2"
        failed=$((failed + 1))
        # Diagnostics go to stderr, where prove shows them without -v.
        [ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/#   /' >&2
    fi
}
# skip NAME WHY: counted as passed, and WHY goes to $SKIP_LOG for make test's summary line.
skip() { count=$((count + 1)); echo "ok $count - $1 # SKIP $2"; [ -z "${SKIP_LOG:-}" ] || echo "$2" >>"$SKIP_LOG"; }
# skip_all WHY: the whole script is skipped (one entry in the summary).
skip_all() { echo "1..0 # SKIP $1"; [ -z "${SKIP_LOG:-}" ] || echo "$1 (a whole script)" >>"$SKIP_LOG"; exit 0; }
done_testing() { echo "1..$count"; [ "$failed" -eq 0 ]; }
# A GPU is present when the driver's own tool sees one; then our programs must find it too.
have_gpu() { nvidia-smi -L >/dev/null 2>&1; }
# The GPUs a program sees: nvidia-smi's, fewer where CUDA_VISIBLE_DEVICES lists fewer (nvidia-smi ignores it).
gpu_count() {
    n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
        v=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
        [ "$v" -lt "$n" ] && n=$v
    fi
    echo "$n"
}
# not_built PROGRAM: succeeds, printing why, when make left PROGRAM out ("not built: no MPI (make said
# why)"): PROGRAMS and NOT_BUILT ("PROGRAM:PART,PART ...") come from make test; run alone, a program
# is built when its file is there.
not_built() {
    if [ -n "${PROGRAMS:-}" ]; then
        case " $PROGRAMS " in *" $1 "*) return 1 ;; esac
    else
        [ -x "./$1" ] && return 1
    fi
    parts=$(printf '%s\n' ${NOT_BUILT:-} | sed -n "s|^$1:||p" | sed 's/,/, no /g')
    echo "not built${parts:+: no $parts} (make said why)"
}
# have_gnuplot: gnuplot is installed and not hidden by GNUPLOT=none (make test GNUPLOT=none).
have_gnuplot() { [ "${GNUPLOT:-gnuplot}" != none ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null; }
# Small-size runs: "program args" per line of tests/runs.txt, comments and blank lines left out.
runs() { grep -v '^[[:space:]]*\(#\|$\)' tests/runs.txt; }
