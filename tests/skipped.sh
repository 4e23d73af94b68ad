#!/bin/sh
# tests/skipped.sh FILE: after `make test`, one line on what the suite skipped and why. FILE has one
# reason a line, written by tap.sh's skip (and whole scripts that skip), for instance "no GPU".
if [ ! -s "$1" ]; then
    echo "make test: nothing skipped"
    exit 0
fi
total=$(wc -l <"$1")
reasons=$(sort "$1" | uniq -c | sort -rn |
          awk '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%s%d %s", sep, n, $0; sep = "; " }')
echo "make test: $total test(s) skipped ($reasons)"
