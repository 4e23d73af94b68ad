#!/bin/sh
# The reading order of CONTRIBUTING.md, kept true: every program opens with a header comment naming its
# file, then its includes and constants, its kernels (and device functions), the CPU reference and host
# helpers, and main last. A file over 150 lines marks those sections with one-line banners, /* ==== ... */,
# the last of them "/* ==== main ==== */". No GPU needed.
. tests/tap.sh
tmp_loop=$(mktemp)
trap 'rm -f "$tmp_loop"' EXIT
for cu in ch*/*.cu; do
    name=$(basename "$cu")
    head -n 1 "$cu" | grep -q "^/\* $name: "
    ok $? "$cu opens with a header naming it" "first line: $(head -n 1 "$cu")"

    # Line numbers of the last kernel or device function, the first host function, and main.
    last_kernel=$(grep -n -E "^__(global|device)__ " "$cu" | tail -n 1 | cut -d: -f1)
    first_host=$(grep -n -E "^static [a-z][a-z_ ]* \**[a-z_0-9]+\(" "$cu" | head -n 1 | cut -d: -f1)
    main=$(grep -n "^int main(" "$cu" | cut -d: -f1)
    functions_after_main=$(awk -v m="$main" 'NR > m && /^[a-z_].*\(.*\)$/ && !/;$/' "$cu" | wc -l)
    [ -n "$main" ] && [ "$functions_after_main" -eq 0 ] && { [ -z "$last_kernel" ] || [ "$last_kernel" -lt "$main" ]; }
    ok $? "$cu: main comes last" "main at line ${main:-none}, $functions_after_main functions after it"
    [ -z "$last_kernel" ] || [ -z "$first_host" ] || [ "$last_kernel" -lt "$first_host" ]
    ok $? "$cu: kernels before the host code" "last kernel at line $last_kernel, first host function at $first_host"

    lines=$(wc -l <"$cu")
    if [ "$lines" -gt 150 ]; then
        grep -q "^/\* ==== main ==== \*/$" "$cu" && [ "$(grep -c '^/\* ==== ' "$cu")" -ge 2 ]
        ok $? "$cu ($lines lines) has section banners, main's last"
    fi
done

# common/ reads bottom-up: no file uses one that uses it back, however indirectly. Each edge "X Y"
# says X.c or X.h includes Y.h; tsort fails on a loop. The check must be able to fail: a copy of
# common/ with one planted include (output.c using cli.h, the top of the pile) must be caught.
edges() {  # edges DIR: "FILE HEADER" for each course header included in DIR/*.c and DIR/*.h
    for f in "$1"/*.c "$1"/*.h; do
        from=$(basename "$f"); from=${from%.*}
        sed -nE 's/^#include "([a-z_]+)\.h".*/\1/p' "$f" | while read -r to; do
            [ "$to" = "$from" ] || echo "$from $to"
        done
    done
}
edges common | tsort >/dev/null 2>"$tmp_loop"
ok $? "common/: no circle among its files (tsort)" "$(cat "$tmp_loop")"
planted=$(mktemp -d)
cp common/*.c common/*.h "$planted/"
echo '#include "cli.h"' >>"$planted/output.c"
edges "$planted" | tsort >/dev/null 2>&1
ok $((! $?)) "a circle planted in a copy of common/ (output.c includes cli.h) is caught"
rm -rf "$planted"

# Lines are at most 120 characters (CONTRIBUTING.md, .editorconfig), in the scripts (the shell, awk and
# make files and the tests) as in the C and CUDA files. Characters, not bytes: awk runs in the C locale,
# where every awk counts bytes (mawk does in any locale), and each UTF-8 continuation byte (\200-\277) is
# taken off the count, so that a "×" counts one. Long lines planted in a copy must be caught: 121
# characters in labs/grade and in a .cu file, and not 120 characters that are 122 bytes.
long_lines() {  # long_lines DIR scripts|c: FILE:LINE of each line over 120 characters in those files under DIR
    (cd "$1" && if [ "$2" = c ]; then
        find . -path './.*' -prune -o -path ./output -prune -o -type f \( -name '*.c' -o -name '*.cu' \
            -o -name '*.h' \) -print
    else
        find . -path './.*' -prune -o -path ./output -prune -o -type f \( -name '*.sh' -o -name '*.t' \
            -o -name '*.awk' -o -name Makefile -o -path ./labs/grade -o -path ./labs/gradebook \) -print
    fi | sort | LC_ALL=C xargs -r awk '{ s = $0 }
        length(s) - gsub(/[\200-\277]/, "", s) > 120 { print FILENAME ":" FNR }')
}
long=$(long_lines . scripts)
[ -z "$long" ]
ok $? "the scripts' lines are at most 120 characters" "$(echo "$long" | head -n 10)"
long=$(long_lines . c)
[ -z "$long" ]
ok $? "the C and CUDA files' lines are at most 120 characters" "$(echo "$long" | head -n 10)"
planted=$(mktemp -d)
mkdir "$planted/labs" "$planted/ch1_embarrassing"
printf '#!/bin/sh\n# %0119d\n' 0 >"$planted/labs/grade"
[ "$(long_lines "$planted" scripts)" = ./labs/grade:2 ]
ok $? "a line of 121 characters planted in a copy of labs/grade is caught" "$(long_lines "$planted" scripts)"
# Line 1: "×" and 120 more characters (122 bytes); line 2: two "×" and 118 more (120 characters, 122 bytes too).
printf '/* \303\227%0114d */\n/* \303\227\303\227%0112d */\n' 0 0 >"$planted/ch1_embarrassing/planted.cu"
[ "$(long_lines "$planted" c)" = ./ch1_embarrassing/planted.cu:1 ]
ok $? "in a copy of a .cu file, a line of 121 characters is caught, one of 120 (122 bytes) is not" \
    "$(long_lines "$planted" c)"
rm -rf "$planted"
# No program, script or test over 600 lines (a file a reader takes in whole): the code and the scripts, as
# git tracks them, and a planted file of 601 lines is caught.
long_files() {  # long_files DIR: "LINES FILE" of each code or script file under DIR over 600 lines
    (cd "$1" && find . -path './.*' -prune -o -path ./output -prune -o -path ./figures -prune -o -type f \( \
        -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.sh' -o -name '*.t' -o -name '*.awk' -o -name '*.py' \
        -o -name '*.gp' -o -name Makefile -o -path ./labs/grade -o -path ./labs/gradebook \) -print |
     sort | while read -r f; do n=$(wc -l <"$f"); [ "$n" -le 600 ] || echo "$n $f"; done)
}
big=$(long_files .)
[ -z "$big" ]
ok $? "no program, script or test is over 600 lines" "$big"
planted=$(mktemp -d)
mkdir "$planted/labs" && seq 601 >"$planted/labs/grade" && seq 600 >"$planted/labs/gradebook"
[ "$(long_files "$planted")" = "601 ./labs/grade" ]
ok $? "a copy of labs/grade of 601 lines is caught, one of 600 is not" "$(long_files "$planted")"
rm -rf "$planted"

# A test's `ok $?` reads the status of the command just before it: a line between them that only sets a
# variable (without a command's output), or an echo, printf or `:`, sets $? to 0, and the test can no
# longer fail (tests/labs.t once checked its hand-out targets so). Such a line is caught in every test
# file, and a `claim=...` planted in a copy too.
hidden_status() {  # hidden_status FILE...: FILE:LINE: the statement that stands between a check and its ok $?
    awk 'FNR == 1 { prev = ""; cont = 0 }
        /^[[:space:]]*(#|$)/ { next }
        { if ($0 ~ /^[[:space:]]*ok \$\?/ && !cont) {
              p = prev; sub(/^[[:space:]]+/, "", p); rest = p
              while (match(rest, /^[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|\047[^\047]*\047|[^[:space:]"\047]*)+[[:space:]]*/))
                  rest = substr(rest, RLENGTH + 1)
              if ((rest == "" && p != "" && p !~ /\$\(/) || (p ~ /^(echo|printf|:)( |$)/ && p !~ /\|/))
                  print FILENAME ":" FNR ": " p }
          cont = ($0 ~ /\\$/); if (!cont) prev = $0 }' "$@"
}
hidden=$(hidden_status tests/*.t)
[ -z "$hidden" ]
ok $? "no test file sets a variable, echoes or does nothing between a check and its ok \$?" "$hidden"
planted=$(mktemp)
printf '%s\n' '[ 1 = 2 ]' 'claim="one is two"' 'ok $? "$claim"' '[ 1 = 1 ]' 'ok $? "one is one"' >"$planted"
[ "$(hidden_status "$planted" | cut -d: -f2)" = 3 ]
ok $? "a claim=... planted between a check and its ok \$? is caught, and nothing else" "$(hidden_status "$planted")"
rm -f "$planted"

# The shell scripts are POSIX sh, and read the same by every shell that may run them: Debian's dash (sh)
# and bash (Colab's sh, and anyone's "bash labs/grade"). bash reads a ' inside "${x:-...}" as a quote,
# where dash does not: such a line must be caught.
scripts=$(find . -path './.*' -prune -o -path ./output -prune -o -type f \( -name '*.sh' -o -name '*.t' \
    -o -path ./labs/grade -o -path ./labs/gradebook \) -print | sort)
for shell in dash bash; do
    if ! command -v $shell >/dev/null 2>&1; then skip "the scripts parse under $shell" "no $shell here"; continue; fi
    bad=$(for f in $scripts; do $shell -n "$f" 2>&1 >/dev/null | head -n 1; done)
    [ -z "$bad" ]
    ok $? "every shell script parses under $shell -n" "$bad"
done
if command -v bash >/dev/null 2>&1; then
    planted=$(mktemp)
    printf '#!/bin/sh\necho "calls ${wanted:-the lab'"'"'s function} here"\n' >"$planted"
    ! bash -n "$planted" 2>/dev/null
    ok $? "a ' inside \"\${x:-...}\" planted in a script is caught by bash -n"
    rm -f "$planted"
fi
done_testing
