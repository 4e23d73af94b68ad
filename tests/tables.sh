#!/bin/sh
# tests/tables.sh [--write]: the READMEs' results tables, rendered from the CSV committed in
# figures/data/. A table between
#     <!-- table NAME: CSV... -->
#     <!-- end table -->
# in any README.md is what the recipe tests/tables/NAME.awk makes of the files figures/data/CSV (one or
# more), read after tests/tables/lib.awk (what every recipe over CSV files shares); the two recipes of
# prose read text.awk instead. The files in results/ are the --csv of the programs (common/stats.h): one
# row per line they print, looked up by its key. Without --write, each table is
# compared with its rendering and any difference is printed (exit 1): a number edited by hand, or data
# changed without `make tables`. With --write (make tables), the READMEs are rewritten from the data.
set -u
write=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

recipes=$(cd "$(dirname "$0")" && pwd)/tables

render() {  # render NAME FILE...: the table (or prose) that tests/tables/NAME.awk makes of the files
    name=$1
    shift
    recipe=$recipes/$name.awk
    case $name in lib|text|*[!a-z0-9_]*) recipe=/nonexistent ;; esac
    [ -f "$recipe" ] || { echo "tables.sh: no recipe '$name' (tests/tables/$name.awk)" >&2; return 1; }
    for f in "$@"; do [ -f "$f" ] || { echo "tables.sh: $f: no such file" >&2; return 1; }; done
    case $name in
    small_gpu_run)
        # One run of make small-gpu, from EMULATION/results.tsv for each emulation given and the files
        # beside it: calls.tsv (when, GPU, driver, CUDA, parts: a line per call), device_query.log,
        # make_test.log and the programs' logs (2gib_*.log: the 2 GiB card's).
        files=""
        for f in "$@"; do
            d=${f%/results.tsv}
            for g in "$d/calls.tsv" "$d/device_query.log" "$f" "$d/make_test.log"; do
                [ -f "$g" ] || { echo "tables.sh: $g: no such file" >&2; return 1; }
                files="$files $g"
            done
            files="$files $(ls "$d"/2gib_*.log 2>/dev/null | tr '\n' ' ')"
        done
        # shellcheck disable=SC2086  # one argument per file
        awk -f "$recipes/text.awk" -f "$recipe" $files ;;
    small_gpu_*) awk -f "$recipes/text.awk" -f "$recipe" "$@" ;;  # logs and tab-separated files: prose
    *) awk -f "$recipes/lib.awk" -f "$recipe" "$@" ;;              # CSV files with their run and header
    esac
}

status=0
for readme in README.md */README.md; do
    # Split the README at its markers: each table's text is replaced by its rendering.
    awk -v tmp="$tmp" '
        /^<!-- table [a-z0-9_]+: [^ ]+( [^ ]+)* -->$/ {
            print; n++; files = ""; for (i = 4; i < NF; i++) files = files " " $i
            print $3 files > (tmp "/want." n); inside = 1; printf "@@TABLE %d@@\n", n; next }
        /^<!-- end table -->$/ { inside = 0 }
        !inside { print }' "$readme" >"$tmp/skeleton"
    : >"$tmp/new"
    while IFS= read -r line; do
        case $line in
        @@TABLE*)
            k=$(echo "$line" | tr -dc 0-9)
            read -r name files <"$tmp/want.$k"
            name=${name%:}
            paths=""
            for f in $files; do paths="$paths figures/data/$f"; done
            # shellcheck disable=SC2086  # one argument per file
            render "$name" $paths >>"$tmp/new" || status=1 ;;
        *) printf '%s\n' "$line" >>"$tmp/new" ;;
        esac
    done <"$tmp/skeleton"
    rm -f "$tmp"/want.*
    if ! cmp -s "$readme" "$tmp/new"; then
        if [ "$write" = --write ]; then
            cp "$tmp/new" "$readme"
            echo "tables: $readme rewritten from figures/data/"
        else
            echo "tables: $readme differs from what its data renders (make tables rewrites it):"
            diff "$readme" "$tmp/new" | head -n 20
            status=1
        fi
    fi
done
exit $status
