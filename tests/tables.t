#!/bin/sh
# Every results table a README marks (<!-- table NAME: CSV -->) is exactly what tests/tables.sh renders
# from the committed CSV: a number edited by hand, or data changed without `make tables`, fails here.
# Every recipe of tests/tables/ is used, and says what it renders; a row it reads that the data lacks
# stops it with the row's key.
. tests/tap.sh
out=$(sh tests/tables.sh 2>&1)
ok $? "README tables match figures/data/ (make tables rewrites them)" "$out"
marked=$(cat README.md */README.md | grep -c '^<!-- table ')
[ "$marked" -ge 5 ]
ok $? "the READMEs mark their results tables ($marked found)"
# Each recipe is a table some README marks, and opens with its header (what it renders, from which data).
for recipe in tests/tables/*.awk; do
    name=$(basename "$recipe" .awk)
    case $name in lib|text) continue ;; esac
    cat README.md */README.md | grep -q "^<!-- table $name: "
    ok $? "tests/tables/$name.awk renders a table some README marks"
    head -n 1 "$recipe" | grep -q "^# tests/tables/$name.awk, for tests/tables.sh: "
    ok $? "tests/tables/$name.awk opens with its header" "$(head -n 1 "$recipe")"
done
# Recipes look rows up by their key (a column of the results file, common/stats.h), not by the
# printed label: a label reworded in a program renders the same table. A row a recipe reads that the
# data lacks (a key renamed in a program) stops the rendering, naming the file and the key, instead of
# printing 0 us; so does a key found twice in one file.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
render() { awk -f tests/tables/lib.awk -f tests/tables/end_to_end.awk "$1" 2>&1; }
want=$(render figures/data/results/naive.csv) && echo "$want" | grep -q '^| the page' &&
    sed 's/^register_sum,sum in a register,/register_sum,the sum kept in a register,/' \
        figures/data/results/naive.csv >"$tmp/naive.csv" &&
    ! cmp -s figures/data/results/naive.csv "$tmp/naive.csv" && [ "$(render "$tmp/naive.csv")" = "$want" ]
ok $? "a label reworded in the data: the recipe renders the same table (rows are read by key)"
grep -v '^register_sum,' figures/data/results/naive.csv >"$tmp/naive.csv"
out=$(render "$tmp/naive.csv"); code=$?
[ $code = 1 ] && echo "$out" | grep -q 'naive.csv has no row keyed "register_sum"'
ok $? "a row the data lacks: the recipe stops (exit 1), naming the file and the key" "exit $code; $out"
{ cat figures/data/results/naive.csv; grep '^naive,' figures/data/results/naive.csv; } >"$tmp/naive.csv"
out=$(render "$tmp/naive.csv"); code=$?
[ $code = 1 ] && echo "$out" | grep -q 'naive.csv has two rows keyed "naive"'
ok $? "a key twice in a file: the recipe stops (exit 1), naming the file and the key" "exit $code; $out"
# Columns are read by their names: a results file with its columns in another order (reversed) renders
# the same table, and a column a recipe reads that the data lacks (renamed) stops it, naming both.
awk -F, -v OFS=, '/^#/ { print; next } { for (i = NF; i > 1; i--) printf "%s,", $i; print $1 }' \
    figures/data/results/naive.csv >"$tmp/naive.csv"
awk -f tests/tables/lib.awk -f tests/tables/end_to_end.awk figures/data/results/naive.csv >"$tmp/want" 2>&1
out=$(awk -f tests/tables/lib.awk -f tests/tables/end_to_end.awk "$tmp/naive.csv" 2>&1); code=$?
[ $code = 0 ] && [ "$out" = "$(cat "$tmp/want")" ]
ok $? "a results file's columns in another order: the same table (they are read by name)" "exit $code; $out"
sed '2s/,verdict,/,said,/' figures/data/labs/graded.csv >"$tmp/graded.csv"
out=$(awk -f tests/tables/lib.awk -f tests/tables/lab_mistakes.awk "$tmp/graded.csv" 2>&1); code=$?
[ $code = 1 ] && echo "$out" | grep -q 'graded.csv has no column "verdict"'
ok $? "a column the data lacks: the recipe stops (exit 1), naming the file and the column" "exit $code; $out"
done_testing
