#!/bin/sh
# Plants a mistake in a solution: sh labs/plant.sh LAB.NAME OUT.cu. The line "LAB NAME REPORT SED" of
# labs/solutions/mistakes.txt says what to change; a change that matches nothing is an error, so that a
# solution edited later cannot leave a "mistake" identical to it.
set -eu
lab=${1%%.*}
name=${1#*.}
line=$(awk -v l="$lab" -v m="$name" '$1 == l && $2 == m' labs/solutions/mistakes.txt)
[ -n "$line" ] || { echo "plant.sh: no mistake $name for $lab in labs/solutions/mistakes.txt" >&2; exit 2; }
expression=$(echo "$line" | cut -d' ' -f4-)
mkdir -p "$(dirname "$2")"
sed "$expression" "labs/solutions/$lab.cu" >"$2.tmp"
if cmp -s "labs/solutions/$lab.cu" "$2.tmp"; then
    rm -f "$2.tmp"
    echo "plant.sh: '$expression' changes nothing in labs/solutions/$lab.cu" >&2
    exit 1
fi
mv "$2.tmp" "$2"
