#!/bin/sh
# make figures: every figure of the course as PNG in figures/.
# On a GPU machine it first runs the programs that feed the figures (the lines below); without a GPU
# it renders from the data already in output/. Rendering needs gnuplot.
set -u
data=output
out=figures
producers="
ch1_embarrassing/adjust_log -n 2000 -r 3 -o output/ch1
ch2_reduction/blobs -o output/ch2
ch2_reduction/ladder -r 11 --csv output/ch2/ladder.csv
ch3_streams_events/stream_timing --csv output/ch3/stream_timeline.csv
ch4_atomics_mutex/histogram -r 5 --csv output/ch4/histogram.csv
ch4_atomics_mutex/histogram_sweep --csv output/ch4/histogram_sweep.csv
ch5_matmul/sgemm_ladder --csv output/ch5/sgemm_ladder.csv
"
if nvidia-smi -L >/dev/null 2>&1; then
    echo "$producers" | grep -v '^$' | while read -r line; do
        echo "figures: $line"
        make -s "${line%% *}" && ./$line >/dev/null || { echo "figures: '$line' failed" >&2; exit 1; }
    done || exit 1
else
    echo "figures: no GPU here, rendering from the data in $data/"
fi
if ! command -v gnuplot >/dev/null; then
    echo "figures: gnuplot is not installed (Debian/Ubuntu: apt-get install gnuplot-nox); the data is in $data/" >&2
    # On a GPU machine the data was the job; render elsewhere with `make figures`.
    nvidia-smi -L >/dev/null 2>&1 && exit 0
    exit 1
fi
mkdir -p "$out"
status=0
for script in plots/*.gp; do
    if gnuplot -e "data='$data'; out='$out'" "$script"; then
        echo "figures: $script -> $out/"
    else
        echo "figures: $script failed (is its data in $data/?)" >&2
        status=1
    fi
done
exit $status
