#!/bin/sh
# Every results table a README marks (<!-- table NAME: CSV -->) is exactly what tests/tables.sh renders
# from the committed CSV: a number edited by hand, or data changed without `make tables`, fails here.
# Every recipe of tests/tables/ is used, and says what it renders.
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
done_testing
