#!/bin/sh
# Copies that say they are copies are copies. A kernel or device function that a program repeats from
# another (so that each file stands alone) must be the same, character for character, from its
# `__global__`/`__device__` line to its closing brace in column 0. Every such function defined in two
# or more files is compared, and a difference fails with the diff. No GPU needed.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME FILE, one line per kernel or device function (__launch_bounds__(...) is not a name).
for cu in ch*/*.cu; do
    sed -E 's/__launch_bounds__\([^)]*\) *//' "$cu" |
        sed -nE 's/^__(global|device)__ [^(]*[ *]([A-Za-z_][A-Za-z_0-9]*)\(.*/\2/p' |
        sed "s|\$| $cu|"
done >"$tmp/all"

# extract NAME FILE: the function's text, from its first line to the first "}" alone on a line.
extract() {
    awk -v name="$1" '
        !inside { line = $0; gsub(/__launch_bounds__\([^)]*\) */, "", line)
                  if (line ~ "^__(global|device)__ .*[ *]" name "\\(") inside = 1 }
        inside { print }
        inside && $0 == "}" { exit }' "$2"
}

shared=0
for name in $(cut -d' ' -f1 "$tmp/all" | sort | uniq -d); do
    files=$(awk -v n="$name" '$1 == n { print $2 }' "$tmp/all")
    first=""
    for f in $files; do
        extract "$name" "$f" >"$tmp/$name.$(echo "$f" | tr / _)"
        if [ -z "$first" ]; then
            first=$f
            continue
        fi
        diff -u "$tmp/$name.$(echo "$first" | tr / _)" "$tmp/$name.$(echo "$f" | tr / _)" >"$tmp/diff"
        ok $? "$name: the same in $first and $f" "$(cat "$tmp/diff")"
        shared=$((shared + 1))
    done
done
# The test must find the copies it exists for (a change to the pattern above must not silence it).
[ "$shared" -ge 15 ]
ok $? "found the repeated kernels ($shared copies; ladder.cu alone holds 5)"
done_testing
