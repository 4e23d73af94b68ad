#!/bin/sh
# Every gnuplot script renders from the data committed in figures/data/ without an error, into a
# temporary folder (skipped where gnuplot is not installed; .ci/run installs it).
. tests/tap.sh
if ! command -v gnuplot >/dev/null; then
    echo "1..0 # SKIP gnuplot is not installed"
    exit 0
fi
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
done_testing
