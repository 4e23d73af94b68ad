#!/bin/sh
# Every gnuplot script renders from the data committed in figures/data/ without an error, into a
# temporary folder (skipped where gnuplot is not installed; .ci/run installs it).
. tests/tap.sh
command -v gnuplot >/dev/null || skip_all "gnuplot is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
FIGURES_DATA=figures/data FIGURES_OUT="$tmp" sh plots/figures.sh >"$tmp/log" 2>&1
code=$?
ok $code "plots/figures.sh renders from figures/data without a gnuplot error" "$(cat "$tmp/log")"
for script in plots/*.gp; do
    name=$(basename "$script" .gp)
    png=$(ls "$tmp"/*"$name".png 2>/dev/null | head -n 1)
    [ -n "$png" ] && [ -s "$png" ]
    ok $? "$name renders to a non-empty PNG from figures/data" "$(grep "$name" "$tmp/log")"
done
# The committed PNGs were rendered from the committed scripts and data (figures/rendered.txt): data or a
# script changed without `make figures` fails here. (Needs no gnuplot, but sits with the figure tests.)
FIGURES_DATA=figures/data FIGURES_STALE=1 sh plots/figures.sh >"$tmp/stale" 2>&1
ok $? "figures/ is rendered from the committed scripts and data" "$(cat "$tmp/stale")"
done_testing
