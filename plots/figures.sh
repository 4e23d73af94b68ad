#!/bin/sh
# make figures: every figure of the course as PNG in figures/.
# 1. On a GPU machine, run the programs that feed the figures and the READMEs' results tables (the
#    producers below), into output/; their printed output goes to output/run.log.
# 2. Render each gnuplot script from output/ when all its data is there, else from the data committed
#    in figures/data/ (the CSV files, and the images gzipped: unpacked into a temporary folder here).
#    Without gnuplot: exit 0 where every figure is current, else exit 1 naming the stale ones.
# FIGURES_OUT=DIR renders into DIR instead of figures/ (make test does, from the committed data only,
# with FIGURES_DATA=figures/data). figures/rendered.txt keeps a hash of each figure's script and data:
# a figure whose inputs did not change is not rendered again (FORCE=1 renders it); FIGURES_STALE=1
# only checks that each figure was rendered from the script and data as they are (make test does).
set -u
out=${FIGURES_OUT:-figures}
producers="
ch1_embarrassing/adjust_log -n 2000 -r 3 -o output/ch1
ch1_embarrassing/grid_stride -n 1e8 --csv output/results/grid_stride_1e8.csv
ch2_reduction/blobs -o output/ch2
ch2_reduction/naive --csv output/results/reduce_naive.csv
ch2_reduction/better --csv output/results/better.csv
ch2_reduction/library --csv output/results/library.csv
ch2_reduction/ladder -r 11 --sweep-csv output/ch2/ladder.csv
ch2_reduction/reduce2d --csv output/results/reduce2d.csv
ch3_streams_events/events --csv output/results/events.csv
ch3_streams_events/stream_timing --stages-csv output/ch3/stream_timeline.csv
ch3_streams_events/streams --csv output/results/streams.csv
ch3_streams_events/streams --streams 2 --csv output/results/streams_2.csv
ch3_streams_events/streams --pageable -r 3 --csv output/results/streams_pageable.csv
ch3_streams_events/vector_add_streams --csv output/results/vector_add_streams.csv
ch3_streams_events/graphs --sweep-csv output/ch3/graphs.csv
ch3_streams_events/heat -o output/ch3/heat --csv output/ch3/heat/heat.csv
mpirun -np 1 ch3_streams_events/heat_mpi -n 4096 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_1_4096.csv
mpirun -np 2 ch3_streams_events/heat_mpi -n 4096 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_2_4096.csv
mpirun -np 1 ch3_streams_events/heat_mpi -n 16384 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_1_16384.csv
mpirun -np 2 ch3_streams_events/heat_mpi -n 16384 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_2_16384.csv
mpirun -np 1 ch3_streams_events/heat_mpi -n 45000 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_1_45000.csv
mpirun -np 2 ch3_streams_events/heat_mpi -n 45000 --steps 20 -r 5 --ways-csv output/ch3/heat/heat_mpi_2_45000.csv
ch3_streams_events/multi_gpu --sweep --sweep-csv output/ch3/multi_gpu.csv
ch3_streams_events/peers --pairs-csv output/ch3/peers.csv
ch4_atomics_mutex/histogram -r 5 --counts output/ch4/histogram.csv --csv output/results/histogram.csv
ch4_atomics_mutex/histogram -n 1e9 -r 11 --counts /dev/null --csv output/results/histogram_1e9.csv
ch4_atomics_mutex/histogram_wide --csv output/results/histogram_wide.csv
ch4_atomics_mutex/histogram_wide -n 1e9 -r 11 --csv output/results/histogram_wide_1e9.csv
ch4_atomics_mutex/histogram_sweep --sweep-csv output/ch4/histogram_sweep.csv
ch4_atomics_mutex/dot_mutex --csv output/results/dot_mutex.csv
ch4_atomics_mutex/scan --sweep-csv output/ch4/scan.csv
ch4_atomics_mutex/equalize -o output/ch4 --csv output/results/equalize.csv
ch5_matmul/naive -n 2500 --csv output/results/naive.csv
ch5_matmul/shared --csv output/results/shared.csv
ch5_matmul/blas --csv output/results/blas.csv
ch5_matmul/sgemm_ladder --sweep-csv output/ch5/sgemm_ladder.csv
ch5_matmul/sgemm_tensor --sweep-csv output/ch5/sgemm_tensor.csv
ch5_matmul/sgemm_hopper --sweep-csv output/ch5/sgemm_hopper.csv
"
# script: the data files it reads (relative to the data folder); heat_runs: heat_mpi's six runs above
heat_runs="ch3/heat/heat_mpi_1_4096.csv ch3/heat/heat_mpi_2_4096.csv ch3/heat/heat_mpi_1_16384.csv"
heat_runs="$heat_runs ch3/heat/heat_mpi_2_16384.csv ch3/heat/heat_mpi_1_45000.csv ch3/heat/heat_mpi_2_45000.csv"
inputs="
adjust_log: ch1/adjust_log_before.pgm ch1/adjust_log_after.pgm ch1/adjust_log.csv
blobs: ch2/blobs_sync.ppm ch2/blobs_nosync.ppm ch2/blobs.csv
ladder: ch2/ladder.csv
stream_timeline: ch3/stream_timeline.csv
multi_gpu: ch3/multi_gpu.csv
heat: ch3/heat/heat.ppm ch3/heat/heat_convergence.csv $heat_runs
histogram: ch4/histogram.csv
histogram_sweep: ch4/histogram_sweep.csv
scan: ch4/scan.csv
equalize: ch4/equalize_before.pgm ch4/equalize_after.pgm ch4/equalize.csv
sgemm_ladder: ch5/sgemm_ladder.csv
sgemm_tensor: ch5/sgemm_tensor.csv ch5/sgemm_hopper.csv
class: labs/example_class.csv
"
if [ -z "${FIGURES_DATA:-}" ] && nvidia-smi -L >/dev/null 2>&1; then
    start=$(date +%s)
    . tests/tap.sh  # gpu_count
    gpus=$(gpu_count)
    mkdir -p output
    { nvidia-smi -L; nvcc --version | tail -n 2; } >output/run.log 2>&1
    echo "$producers" | grep -v '^$' | while read -r line; do
        case "$line" in ch3_streams_events/multi_gpu*|ch3_streams_events/peers*|mpirun*)
            # Their figure is about several GPUs: on one, the committed data stays.
            [ "$gpus" -ge 2 ] || { echo "figures: $line needs 2 GPUs or more; skipped"; continue; } ;;
        esac
        program=${line%% *} run=./$line
        case "$line" in mpirun*)  # mpirun -np K PROGRAM ...: one rank per GPU (heat_mpi)
            command -v mpirun >/dev/null || { echo "figures: $line needs MPI (mpirun); skipped"; continue; }
            set -- $line
            program=$4 run="mpirun -np $3 ./${line#mpirun -np $3 }" ;;
        esac
        echo "figures: $line"
        echo "=== $line" >>output/run.log
        make -s "$program" || { echo "figures: '$program' does not build" >&2; exit 1; }
        $run >>output/run.log 2>&1 </dev/null; code=$?
        # 77: this GPU cannot run it (sgemm_hopper off a Hopper), said in run.log; the committed data stays.
        [ $code = 77 ] && { echo "figures: $line cannot run on this GPU; skipped"; continue; }
        [ $code = 0 ] || { echo "figures: '$line' failed" >&2; exit 1; }
    done || exit 1
    echo "figures: data made in $(( $(date +%s) - start )) s" | tee -a output/run.log
fi
# GNUPLOT=none (make figures GNUPLOT=none) acts as if gnuplot were not installed. FIGURES_STALE needs none.
# Without gnuplot nothing is rendered: every figure current is fine (exit 0), one that is not is named,
# with the folder of its data and how to install gnuplot (exit 1).
gnuplot=${GNUPLOT:-gnuplot}
no_gnuplot=""
[ "$gnuplot" != none ] && command -v "$gnuplot" >/dev/null || no_gnuplot=yes
mkdir -p "$out"
status=0
have_all() {  # have_all DIR FILES...: every file is in DIR (or, gzipped, FILE.gz)
    dir=$1
    shift
    for f in "$@"; do [ -f "$dir/$f" ] || [ -f "$dir/$f.gz" ] || return 1; done
}
# The committed data, with its images unpacked, in a temporary folder.
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
cp -r figures/data/. "$unpacked/" && gunzip -rq "$unpacked"
echo "$inputs" | grep -v '^$' | {
    current="" stale=""  # without gnuplot: the data folders of the current figures; the others, by name
    while read -r script files; do
        script=${script%:}
        data=""
        for dir in ${FIGURES_DATA:-output figures/data}; do
            if have_all "$dir" $files; then data=$dir; break; fi
        done
        if [ -z "$data" ]; then
            echo "figures: $script: no data (run make figures on a GPU machine); keeping $out/ as it is"
            continue
        fi
        from=$data
        [ "$data" = figures/data ] && from=$unpacked
        # A figure whose script and data are those it was last rendered from stays as it is, so that a
        # newer gnuplot (its fonts, its antialiasing) does not rewrite committed PNGs for nothing.
        key=$(cd "$from" && cat "$OLDPWD/plots/$script.gp" $files | sha256sum | cut -c1-16)
        if [ -n "${FIGURES_STALE:-}" ]; then  # only say whether figures/ was rendered from these inputs
            grep -qx "$script $key" figures/rendered.txt 2>/dev/null ||
                { echo "figures: $script: figures/ was not rendered from plots/$script.gp and $data/ as they are"
                  status=1; }
            continue
        fi
        if [ "$out" = figures ] && [ -z "${FORCE:-}" ] && grep -qx "$script $key" figures/rendered.txt 2>/dev/null; then
            [ -n "$no_gnuplot" ] && { current="$current $data/"; continue; }
            echo "figures: plots/$script.gp: script and data unchanged since $out/ was rendered; kept (FORCE=1 renders)"
            continue
        fi
        if [ -n "$no_gnuplot" ]; then
            stale="$stale${stale:+, }$script (data in $data/)"
            continue
        fi
        if "$gnuplot" -e "data='$from'; out='$out'" "plots/$script.gp"; then
            echo "figures: plots/$script.gp from $data/ -> $out/"
            if [ "$out" = figures ]; then
                { grep -v "^$script " figures/rendered.txt 2>/dev/null; echo "$script $key"; } |
                    sort >"$unpacked/rendered"
                cp "$unpacked/rendered" figures/rendered.txt
            fi
        else
            echo "figures: plots/$script.gp failed on $data/" >&2
            status=1
        fi
    done
    if [ -n "$no_gnuplot" ] && [ -z "${FIGURES_STALE:-}" ]; then
        if [ -n "$stale" ]; then
            echo "figures: gnuplot is not installed, and these figures are stale (their plots/ script or data" \
                 "changed since $out/ was rendered, or FORCE=1): $stale; install gnuplot (Debian/Ubuntu: sudo" \
                 "apt-get install gnuplot-nox; macOS: brew install gnuplot), then make figures" >&2
            exit 1
        fi
        folders=$(printf '%s\n' $current | sort -u | paste -s -d ' ' -)
        echo "figures: every figure in $out/ is current, rendered from plots/ and the data in" \
             "${folders:-figures/data/} as they are (figures/rendered.txt): nothing to render, and gnuplot is" \
             "not installed"
    fi
    exit $status
}
