#!/bin/sh
# Every results table a README marks (<!-- table NAME: CSV -->) is exactly what tests/tables.sh renders
# from the committed CSV: a number edited by hand, or data changed without `make tables`, fails here.
. tests/tap.sh
out=$(sh tests/tables.sh 2>&1)
ok $? "README tables match figures/data/ (make tables rewrites them)" "$out"
marked=$(cat README.md */README.md | grep -c '^<!-- table ')
[ "$marked" -ge 5 ]
ok $? "the READMEs mark their results tables ($marked found)"
done_testing
