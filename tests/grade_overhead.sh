#!/bin/sh
# What the sandbox and the machine-code rules cost a grade (a benchmark, run on a GPU; not a test):
#   sh tests/grade_overhead.sh [CSV [LAB...]]     CSV default output/labs/grade_overhead.csv; LAB: all of LABS
# Each lab's solution is compiled first (as make labs does), then graded whole twice in a row, in turns
# of order (odd labs sandboxed first): once as every grade is ("after": the runner in bubblewrap, the
# rules read from the machine code, beside steps 1 and 2), once with LAB_SANDBOX=none and the rules'
# finding kept from a build-only grade just before, so that none are read ("before": neither). Before the
# sandboxed grade the findings that labs/grade keeps are removed, so that it reads its file's rules, as a
# student's new file is (the solution's findings, kept after a machine's first grade, cost nothing).
# The overhead of a lab is after - before; the summary line gives the median over the labs, which
# labs/README.md holds to 1 s. A row a grade:
#   lab,sandbox,exit,verdict,seconds,rules_seconds,steps      (the verdict's commas written ;; steps: the
#   grade's grade-step-seconds, "build;S;correctness;S;..." )
# The CSV's first line names the GPU. What it leaves out: the compiler's own sandbox (a build is kept
# between grades, so both grades reuse it; one bwrap start, printed on the summary line, is its cost).
set -u
cd "$(dirname "$0")/.." || exit 2
. labs/csv.sh
csv=${1:-output/labs/grade_overhead.csv}
[ $# -gt 0 ] && shift
labs=${*:-$(make -s --no-print-directory lab-list)}
csv_refuse "$csv"
nvidia-smi -L >/dev/null 2>&1 || { echo "tests/grade_overhead.sh: no GPU here: nothing to measure" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lab in $labs; do printf '%s\n' "$lab" "labs/solutions/$lab.cu"; done | sh labs/build_first.sh
now() { date +%s.%N; }
# one LAB SANDBOX: a whole grade, its row.
one() {
    rm -rf output/labs/build/.rules
    [ "$2" != none ] || LAB_BUILD_ONLY=1 sh labs/grade "$1" "labs/solutions/$1.cu" >/dev/null 2>&1 </dev/null
    t0=$(now)
    if [ "$2" = none ]; then LAB_SANDBOX=none sh labs/grade "$1" "labs/solutions/$1.cu" >"$tmp/$1.$2" 2>&1 </dev/null
    else sh labs/grade "$1" "labs/solutions/$1.cu" >"$tmp/$1.$2" 2>&1 </dev/null; fi
    code=$?
    t1=$(now)
    printf '%s,%s,%s,%s,%.2f,%s,%s\n' "$1" "$2" "$code" "$(csv_field "$tmp/$1.$2" verdict | tr ',' ';')" \
        "$(echo "$t0 $t1" | awk '{ print $2 - $1 }')" "$(sed -n 's/^grade-rules-seconds //p' "$tmp/$1.$2")" \
        "$(sed -n 's/^grade-step-seconds //p' "$tmp/$1.$2" | tr ' ' ';')"
}
n=0
{
    for lab in $labs; do
        n=$((n + 1))
        if [ $((n % 2)) = 1 ]; then one "$lab" bwrap; one "$lab" none; else one "$lab" none; one "$lab" bwrap; fi
    done
} >"$tmp/rows"
bwrap=$(command -v bwrap || echo .tools/bin/bwrap)
t0=$(now); "$bwrap" --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev true; t1=$(now)
{ echo "# device: $(csv_device "$tmp"/*.bwrap), $(date -u '+%Y-%m-%d %H:%M') UTC, tests/grade_overhead.sh"
  echo "lab,sandbox,exit,verdict,seconds,rules_seconds,steps"; cat "$tmp/rows"; } >"$csv.tmp" && mv "$csv.tmp" "$csv" ||
    { echo "cannot write $csv" >&2; exit 1; }
# The summary: after - before, lab by lab, and their median.
awk -F, -v bw="$(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }')" '
    NR <= 2 { next }
    $2 == "bwrap" { after[$1] = $5; ok[$1] += ($3 == 0); g[++m] = $5
                    k = split($7, f, ";"); for (i = 1; i + 1 <= k; i += 2) step[f[i]] += f[i + 1] }
    $2 == "none" { before[$1] = $5; ok[$1] += ($3 == 0) }
    END {
        for (lab in after) if (lab in before) { d[++n] = after[lab] - before[lab]; passed += (ok[lab] == 2) }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
        median = n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2
        printf "grade overhead (sandbox and rules): median %.2f s over %d labs (min %.2f, max %.2f);",
            median, n, d[1], d[n]
        printf " %d of them PASS both ways; one bwrap start %s s\n", passed, bw
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (g[j] < g[i]) { t = g[i]; g[i] = g[j]; g[j] = t }
        printf "a grade (sandboxed): median %.2f s over %d labs; their seconds by step, mean:", \
            m % 2 ? g[(m + 1) / 2] : (g[m / 2] + g[m / 2 + 1]) / 2, m
        for (s in step) printf " %s %.2f", s, step[s] / m
        print ""
    }' "$csv"
