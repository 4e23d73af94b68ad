#!/bin/sh
# Every gnuplot script renders from the data committed in figures/data/ without an error, into a
# temporary folder (skipped where gnuplot is not installed, or hidden by GNUPLOT=none; .ci/run installs
# it), and the committed PNGs are those the committed scripts and data make (no gnuplot needed).
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The committed PNGs were rendered from the committed scripts and data (figures/rendered.txt): data or a
# script changed without `make figures` fails here.
FIGURES_DATA=figures/data FIGURES_STALE=1 sh plots/figures.sh >"$tmp/stale" 2>&1
ok $? "figures/ is rendered from the committed scripts and data" "$(cat "$tmp/stale")"
if ! have_gnuplot; then
    why="no gnuplot ($([ "${GNUPLOT:-}" = none ] && echo "GNUPLOT=none" || echo "not installed"))"
    skip "plots/figures.sh renders from figures/data" "$why"
    for script in plots/*.gp; do skip "$(basename "$script" .gp) renders to a non-empty PNG" "$why"; done
    done_testing
    exit
fi
FIGURES_DATA=figures/data FIGURES_OUT="$tmp" sh plots/figures.sh >"$tmp/log" 2>&1
code=$?
ok $code "plots/figures.sh renders from figures/data without a gnuplot error" "$(cat "$tmp/log")"
for script in plots/*.gp; do
    name=$(basename "$script" .gp)
    png=$(ls "$tmp"/*"$name".png 2>/dev/null | head -n 1)
    [ -n "$png" ] && [ -s "$png" ]
    ok $? "$name renders to a non-empty PNG from figures/data" "$(grep "$name" "$tmp/log")"
done
done_testing
