#!/bin/sh
# Every gnuplot script renders from the data committed in figures/data/ without an error, into a
# temporary folder (skipped where gnuplot is not installed, or hidden by GNUPLOT=none; .ci/run installs
# it), and the committed PNGs are those the committed scripts and data make (no gnuplot needed); without
# gnuplot, make figures exits 0 where every figure is current and 1 naming a stale one.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The committed PNGs were rendered from the committed scripts and data (figures/rendered.txt): data or a
# script changed without `make figures` fails here.
FIGURES_DATA=figures/data FIGURES_STALE=1 sh plots/figures.sh >"$tmp/stale" 2>&1
ok $? "figures/ is rendered from the committed scripts and data" "$(cat "$tmp/stale")"
# Without gnuplot (GNUPLOT=none, whether or not it is installed), make figures renders nothing: where every
# figure is current it says so, pointing at figures/data/, and exits 0; a stale one (its script changed,
# in a copy) is named, with how to install gnuplot, and exit 1.
GNUPLOT=none FIGURES_DATA=figures/data sh plots/figures.sh >"$tmp/none" 2>&1; code=$?
[ $code = 0 ] && grep -q "every figure in figures/ is current.* figures/data/" "$tmp/none" &&
    ! grep -q "output/" "$tmp/none"
ok $? "without gnuplot, every figure current: exit 0, says so and points at figures/data/" \
   "exit $code: $(cat "$tmp/none")"
mkdir -p "$tmp/copy" && cp -r plots figures "$tmp/copy/" && echo "# changed" >>"$tmp/copy/plots/ladder.gp"
(cd "$tmp/copy" && GNUPLOT=none FIGURES_DATA=figures/data sh plots/figures.sh) >"$tmp/none" 2>&1; code=$?
[ $code = 1 ] && grep -q "stale.*: ladder (data in figures/data/); install gnuplot" "$tmp/none" &&
    [ "$(grep -o "(data in" "$tmp/none" | wc -l)" = 1 ]
ok $? "without gnuplot, a stale figure: exit 1, names it alone and how to install gnuplot" \
   "exit $code: $(cat "$tmp/none")"
rm -rf "$tmp/copy"
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
# class.gp draws any labs/gradebook CSV too: a made-up book of two students, a PASS, a slow one, a FAIL.
{ echo "# device: NVIDIA H200, compute capability 9.0, 132 SMs, 2026-11-24 10:00 UTC, labs/gradebook"
  echo student,lab,verdict,exit,correct,sanitizer,time_ms,percent_of_solution,percent_of_limit,limit,seed,sha256,seconds
  echo "(solution),ch1_map,PASS,0,yes,clean,0.237,100,93,copy bandwidth,1,ab,3"
  echo "ada,ch1_map,PASS,0,yes,clean,0.240,99,92,copy bandwidth,1,cd,3"
  echo "bo,ch1_map,PASS but slow,3,yes,clean,0.900,26,24,copy bandwidth,1,ef,3"
  echo "bo,ch2_block_sum,FAIL (wrong result),1,no,-,-,-,-,-,1,01,2"; } >"$tmp/book.csv"
"${GNUPLOT:-gnuplot}" -e "book='$tmp/book.csv'; png='$tmp/book.png'" plots/class.gp >"$tmp/class.log" 2>&1 &&
    [ -s "$tmp/book.png" ]
ok $? "class renders a grade book (labs/gradebook's CSV) to a non-empty PNG" "$(cat "$tmp/class.log")"
# It reads the book's columns by their names: the same book with its columns in another order (the
# limit's share first, the seconds third) draws the same picture.
awk -F, -v OFS=, '/^#/ { print; next } { print $9, $1, $13, $2, $3, $4, $5, $6, $7, $8, $10, $11, $12 }' \
    "$tmp/book.csv" >"$tmp/shuffled.csv"
"${GNUPLOT:-gnuplot}" -e "book='$tmp/shuffled.csv'; png='$tmp/shuffled.png'" plots/class.gp >"$tmp/class.log" 2>&1 &&
    cmp -s "$tmp/book.png" "$tmp/shuffled.png"
ok $? "class reads the book's columns by name: in another order, the same PNG" "$(cat "$tmp/class.log")"
done_testing
