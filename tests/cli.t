#!/bin/sh
# The command-line contract of every program (../shared/CONVENTIONS.md): -h exits 0; an unknown option
# or a malformed number exits 2 with one line naming it; no device exits 77; a device id that does not
# exist is a usage error (2) on a GPU machine; a program of every visible GPU offers no --device.
. tests/tap.sh
[ -n "${PROGRAMS:-}" ] || { echo "Bail out! PROGRAMS is empty: run through 'make test'"; exit 1; }
err=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -rf "$err" "$scratch"' EXIT

for p in $PROGRAMS; do
    help=$(./$p -h 2>&1); code=$?
    echo "$help" | grep -q "^usage: "; ok $((code != 0 || $?)) "$p -h prints usage, exit 0" "exit $code"

    ./$p --no-such-option >/dev/null 2>"$err"; code=$?
    head -n 1 "$err" | grep -q -- "--no-such-option: unknown option"
    ok $((code != 2 || $?)) "$p --no-such-option: exit 2, names it" "exit $code: $(head -n 1 "$err")"

    if echo "$help" | grep -q '^  --device N '; then
        ./$p --device 1x >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "--device: '1x'"
        ok $((code != 2 || $?)) "$p --device 1x: exit 2, names it" "exit $code: $(head -n 1 "$err")"
    else  # a program of every visible GPU (cli_parse_gpus without --device)
        CUDA_VISIBLE_DEVICES= ./$p --device 0 >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "--device: unknown option" && echo "$help" | grep -q CUDA_VISIBLE_DEVICES
        ok $((code != 2 || $?)) "$p offers no --device: an unknown option (exit 2), -h names CUDA_VISIBLE_DEVICES" \
           "exit $code: $(head -n 1 "$err")"
    fi

    if echo "$help" | grep -q '^  -n '; then
        for bad in 12x -5 0 1.5 0x10 +5; do
            ./$p -n "$bad" >/dev/null 2>"$err"; code=$?
            head -n 1 "$err" | grep -q -- "-n: '$bad'"
            ok $((code != 2 || $?)) "$p -n $bad: exit 2, names it" "exit $code: $(head -n 1 "$err")"
        done
    fi

    if echo "$help" | grep -q '^  -r '; then
        ./$p -r 2 -r 3 >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "-r: given twice"
        ok $((code != 2 || $?)) "$p -r 2 -r 3: exit 2, given twice" "exit $code: $(head -n 1 "$err")"
    fi
    # Output paths are checked before the device starts: exit 2, not 77, without a GPU. The CSV files a
    # program writes: --csv (the results table), --sweep-csv and the like (its own columns).
    csvs=$(echo "$help" | sed -n 's/^  \(--[a-z-]*csv\) FILE .*/\1/p')
    for csv in $csvs; do
        CUDA_VISIBLE_DEVICES= ./$p $csv "$scratch" >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "$csv: '$scratch' is a folder"
        ok $((code != 2 || $?)) "$p $csv FOLDER: exit 2 before the device" "exit $code: $(head -n 1 "$err")"
        CUDA_VISIBLE_DEVICES= ./$p $csv README.md/x.csv >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "$csv: 'README.md/x.csv' needs the folder 'README.md'"
        ok $((code != 2 || $?)) "$p $csv under a file: exit 2 before the device" "exit $code: $(head -n 1 "$err")"
        # A forgotten value: the next option is not taken for a file's name.
        CUDA_VISIBLE_DEVICES= ./$p $csv -r 2 >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "$csv: '-r' looks like an option"
        ok $((code != 2 || $?)) "$p $csv -r: exit 2, looks like an option" "exit $code: $(head -n 1 "$err")"
        CUDA_VISIBLE_DEVICES= ./$p $csv "$scratch/made/by/csv/x.csv" >/dev/null 2>"$err"; code=$?
        [ $code = 77 ] && [ ! -e "$scratch/made" ]
        ok $? "$p $csv NEW/x.csv without a device: exit 77, no folder made" \
           "exit $code: $(ls -R "$scratch/made" 2>&1 | head -n 3)"
        rm -rf "$scratch/made"
    done
    # --csv is the results table of a program whose main keeps one (cli_results_option, results_to), and
    # only there: cli_parse adds it to no program, so a program without it refuses it.
    if ! echo "$csvs" | grep -qx -- --csv; then
        CUDA_VISIBLE_DEVICES= ./$p --csv "$scratch/x.csv" >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "--csv: unknown option"
        ok $((code != 2 || $?)) "$p has no results table: --csv is an unknown option, exit 2" \
           "exit $code: $(head -n 1 "$err")"
    fi
    if echo "$help" | grep -q '^  -o DIR'; then
        CUDA_VISIBLE_DEVICES= ./$p -o README.md >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "-o: 'README.md' is not a folder"
        ok $((code != 2 || $?)) "$p -o FILE: exit 2 before the device" "exit $code: $(head -n 1 "$err")"
        # A forgotten value: the next option is not taken for a folder's name.
        CUDA_VISIBLE_DEVICES= ./$p -o -r 2 >/dev/null 2>"$err"; code=$?
        head -n 1 "$err" | grep -q -- "-o: '-r' looks like an option"
        ok $((code != 2 || $?)) "$p -o -r: exit 2, looks like an option" "exit $code: $(head -n 1 "$err")"
        # Folders are made when a file is written: not for a run refused, nor for one without a device.
        for csv in $csvs; do
            CUDA_VISIBLE_DEVICES= ./$p -o "$scratch/made/by/o" $csv README.md/x.csv >/dev/null 2>"$err"; code=$?
            [ $code = 2 ] && head -n 1 "$err" | grep -q -- "$csv: 'README.md/x.csv'" && [ ! -e "$scratch/made" ]
            ok $? "$p -o NEW with a refused $csv: exit 2, no folder made" \
               "exit $code: $(ls -R "$scratch/made" 2>&1 | head -n 3)"
        done
        CUDA_VISIBLE_DEVICES= ./$p -o "$scratch/made/by/o" >/dev/null 2>"$err"; code=$?
        [ $code = 77 ] && [ ! -e "$scratch/made" ]
        ok $? "$p -o NEW without a device: exit 77, no folder made" \
           "exit $code: $(ls -R "$scratch/made" 2>&1 | head -n 3)"
        rm -rf "$scratch/made"
    fi

    CUDA_VISIBLE_DEVICES= ./$p >/dev/null 2>"$err"; code=$?
    grep -q "no usable CUDA device" "$err"
    ok $((code != 77 || $?)) "$p with no visible device: exit 77, says so" "exit $code: $(head -n 1 "$err")"

    if ! echo "$help" | grep -q '^  --device N '; then
        :  # (no --device: above)
    elif have_gpu; then
        ./$p --device 999 >/dev/null 2>"$err"; code=$?
        grep -q "no such device" "$err"
        ok $((code != 2 || $?)) "$p --device 999: exit 2, no such device" "exit $code: $(head -n 1 "$err")"
    else
        ./$p --device 0 >/dev/null 2>"$err"; code=$?
        ok $((code != 77)) "$p without a GPU: exit 77" "exit $code: $(head -n 1 "$err")"
    fi
done

# --csv is explicit in each program's source: the option in its table (cli_results_option) comes with
# main's results_to, which hands FILE to stats.h, and with measurements to write there (print_*,
# record_value); a program with only one of the two would take --csv and write nothing.
wrong=""
for p in $PROGRAMS; do
    option=$(grep -c 'cli_results_option(' "$p.cu") handed=$(grep -c 'results_to(' "$p.cu")
    printed=$(grep -c 'print_time(\|print_bandwidth(\|print_flops(\|record_value(' "$p.cu")
    [ "$option" = "$handed" ] && [ "$option" -le 1 ] && { [ "$option" = 0 ] || [ "$printed" -gt 0 ]; } ||
        wrong="$wrong $p (cli_results_option $option, results_to $handed, print_* $printed)"
done
[ -z "$wrong" ]
ok $? "every --csv is handed to results_to by main, and has measurements to write" "$wrong"

# --device N, where -h offers it, is the GPU the program starts (device_start, or heat_mpi's choose_gpu),
# refused past the last GPU by the one call that counts them: in main, from cli_parse to that start, no
# CUDA call, launch or GPU helper, and the number is never held to one value (multi_gpu and peers took
# --device, then refused every N but 0 after the GPU had started).
wrong=""
for p in $PROGRAMS; do
    ./$p -h 2>/dev/null | grep -q '^  --device N ' || continue
    why=$(awk '
        !var && match($0, /int [a-z_]+ = cli_parse(_gpus)?\(/) { var = substr($0, RSTART + 4, RLENGTH - 4)
                                                               sub(/ = cli_parse.*/, "", var); next }
        var && !started && /device_start\(|choose_gpu\(/ {
            started = 1
            if ($0 !~ ("(device_start|choose_gpu)\\(" var "[,)]")) print "starts another GPU than --device:", $0 }
        var && !started && /cuda[A-Z][A-Za-z]*\(|<<<|measure_[a-z_]*\(|size_to_fit\(|device_need_memory\(/ {
            print "GPU work before the device starts:", $0 }
        var && $0 ~ ("[^a-z_]" var " *[!=<>]=? *[0-9]") { print "holds --device to a value:", $0 }
        END { if (!var) print "no cli_parse"; else if (!started) print "never starts the device" }' "$p.cu")
    [ -z "$why" ] || wrong="$wrong
$p: $why"
done
[ -z "$wrong" ]
ok $? "every --device offered is the GPU started, and nothing touches a GPU before it" "$wrong"

# A launch shape past the grid's limit is a usage error, found before the GPU is touched: exit 2 with no
# device too.
CUDA_VISIBLE_DEVICES= ./ch1_embarrassing/add_array -n 4e9 --threads 1 >/dev/null 2>"$err"; code=$?
grep -q "grid's x limit" "$err"
ok $((code != 2 || $?)) "add_array -n 4e9 --threads 1: exit 2 before any GPU work" "exit $code: $(head -n 1 "$err")"

# An existing file the user may not write is refused before the device, as a shell's > would refuse it,
# though the folder lets the rename replace it. Root may write any file: as root, the program runs as
# nobody (setpriv), where nobody can reach it.
echo kept >"$scratch/kept.csv" && chmod 444 "$scratch/kept.csv" && chmod 711 "$scratch"
as_user=""
[ "$(id -u)" = 0 ] && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ -n "$as_user" ] && ! $as_user ./ch2_reduction/better -h >/dev/null 2>&1; then
    skip "better --csv READ-ONLY: exit 2, cannot be written" "root, and nobody cannot run the programs here (setpriv)"
else
    CUDA_VISIBLE_DEVICES= $as_user ./ch2_reduction/better --csv "$scratch/kept.csv" >/dev/null 2>"$err"; code=$?
    head -n 1 "$err" | grep -q -- "--csv: '.*kept.csv' cannot be written: Permission denied"
    ok $((code != 2 || $?)) "better --csv READ-ONLY${as_user:+ (as nobody)}: exit 2, cannot be written" \
        "exit $code: $(head -n 1 "$err")"
fi
chmod 700 "$scratch"

# Conflicts and inputs found before the device starts, and what a machine without a driver is told.
for p in ch4_atomics_mutex/histogram ch4_atomics_mutex/histogram_wide; do
    CUDA_VISIBLE_DEVICES= ./$p --input README.md -n 5 >/dev/null 2>"$err"; code=$?
    grep -q -- "-n sizes the synthetic text" "$err"
    ok $((code != 2 || $?)) "$p --input FILE -n N: exit 2, says -n is for the synthetic text" \
       "exit $code: $(head -n 1 "$err")"
done
mkfifo "$scratch/fifo"
CUDA_VISIBLE_DEVICES= timeout 10 ./ch1_embarrassing/adjust_log --input "$scratch/fifo" >/dev/null 2>"$err"; code=$?
grep -q -- "--input: '.*fifo' is not a regular file" "$err"
ok $((code != 2 || $?)) "adjust_log --input FIFO: exit 2 at once, not a wait for a writer" \
   "exit $code: $(head -n 1 "$err")"
CUDA_VISIBLE_DEVICES= ./ch1_embarrassing/adjust_log --input tests >/dev/null 2>"$err"; code=$?
grep -q -- "--input: 'tests' is a folder" "$err"
ok $((code != 2 || $?)) "adjust_log --input FOLDER: exit 2, says it is a folder" "exit $code: $(head -n 1 "$err")"
start=$(date +%s)
CUDA_VISIBLE_DEVICES= ./ch4_atomics_mutex/histogram -n 2e9 >/dev/null 2>"$err"; code=$?
ok $((code != 77 || $(date +%s) - start > 2)) "histogram -n 2e9 without a device: exit 77 before building the text" \
    "exit $code in $(($(date +%s) - start)) s"
if [ ! -e /proc/driver/nvidia/version ]; then
    ./ch1_embarrassing/add_scalars >/dev/null 2>"$err"; code=$?
    grep -q "no NVIDIA driver" "$err"
    ok $((code != 77 || $?)) "no NVIDIA driver at all: exit 77, says so" "exit $code: $(head -n 1 "$err")"
else
    skip "no NVIDIA driver at all: exit 77, says so" "this machine has a driver"
fi
done_testing
