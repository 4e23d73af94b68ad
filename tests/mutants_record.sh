#!/bin/sh
# tests/mutants_record.sh RECORD RESULTS ACCEPTED SITES SECONDS GPU DATE JOBS ONLY: the record of the
# mutation run (tests/mutants.sh, MUTANTS_RECORD=RECORD), kept beside RECORD, made of runs in turn: a
# whole run may be made a group of files at a time (MUTANTS_ONLY=ONLY), each group's result recorded as
# it finishes. RESULTS may be an empty file: the record made again, with ACCEPTED as it is now.
#   results.tsv  each mutant's outcome: a line of RESULTS (the site, STATUS, SECONDS) and a 13th field,
#                "accepted" where its survivor is accepted by ACCEPTED as last recorded. A run's rows take
#                the place of the rows of the same sites; a site no longer in SITES loses its row; the
#                line and column are the site's now (its id stays where its line moves).
#                tests/mutants.t draws its sample from here (MUTANTS_FROM): only mutants that were killed
#                or accepted, so that a sample fails only where a test or the accepted list changed.
#   runs.tsv     one line a group: ONLY ("all": everything), DATE, MUTANTS, SECONDS, JOBS; a group run
#                again takes its line's place.
#   RECORD       tests/mutants_report.sh's counts over results.tsv ("# ==== The run" on), the groups'
#                seconds added, then what no group has reached: the sites of SITES without a row.
set -u
record=$1 results=$2 accepted=$3 sites=$4 seconds=$5 gpu=$6 date=$7 jobs=$8 only=${9:-all}
dir=$(dirname "$record")
mkdir -p "$dir" || exit 2
kept=$dir/results.tsv runs=$dir/runs.tsv
# (one recording at a time: two groups run side by side, each in its MUTANTS_DIR, may end together)
while ! mkdir "$record.lock" 2>/dev/null; do sleep 1; done
ids=$(mktemp) || { rmdir "$record.lock"; exit 2; }
trap 'rmdir "$record.lock"; rm -f "$ids"' EXIT
[ -f "$kept" ] || : >"$kept"
[ -f "$runs" ] || : >"$runs"
grep -v '^[[:space:]]*\(#\|$\)' "$accepted" 2>/dev/null | awk '{ print $1 }' >"$ids"
# The kept rows of sites this run did not plant, and this run's, in the order of SITES, placed as SITES
# places them now; each survivor marked by ACCEPTED as it is now (a line added for a kept survivor counts).
awk -F'\t' -v OFS='\t' -v ids="$ids" '
    BEGIN { while ((getline l < ids) > 0) ok[l] }
    FILENAME == ARGV[1] { row[$1] = $0; now[$1]; next }
    FILENAME == ARGV[2] { if (!($1 in now)) row[$1] = $0; next }
    ($1 in row) {
        split(row[$1], r, "\t")
        print $0, r[11], r[12], (r[11] == "survived" && ($1 in ok)) ? "accepted" : ""
    }' "$results" "$kept" "$sites" >"$kept.tmp" && mv "$kept.tmp" "$kept" || exit 2
if [ -s "$results" ]; then
    awk -F'\t' -v k="$only" '$1 != k' "$runs" >"$runs.tmp"
    printf '%s\t%s\t%s\t%s\t%s\n' "$only" "$date" "$(wc -l <"$results")" "$seconds" "$jobs" >>"$runs.tmp"
    mv "$runs.tmp" "$runs"
fi
total=$(awk -F'\t' '{ s += $4 } END { print s + 0 }' "$runs")
first=$(cut -f2 "$runs" | sort | head -n 1)
sh tests/mutants_report.sh "$kept" "$accepted" "$total" "$gpu" "$(wc -l <"$sites")" "$first to $date" "$jobs" \
    >"$record.report"
{
    sed -n '/^# ==== The run/,$p' "$record.report"
    echo "groups (MUTANTS_ONLY, date, mutants, seconds, copies), their seconds added above (a file run again"
    echo "counts again):"
    sed 's/^/  /' "$runs"
    awk -F'\t' 'FILENAME == ARGV[1] { have[$1]; next }
        !($1 in have) { n++; class[$6]++; files[$2]++ }
        END {
            printf "not reached: %d sites (host %d, both %d, gpu %d)\n", n, class["host"], class["both"],
                class["gpu"]
            for (f in files) order[++m] = f
            for (i = 2; i <= m; i++)  # (in order of name: an insertion sort, any awk)
                for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
                    t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
                }
            for (i = 1; i <= m; i++) printf "  %s %d\n", order[i], files[order[i]]
        }' "$kept" "$sites"
} >"$record"
rm -f "$record.report"
