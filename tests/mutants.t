#!/bin/sh
# The mutation run (make mutants, tests/mutants.sh) in small: first, that it can fail. Three sites of its
# own (MUTANTS_SITES) are planted in a copy: a real change (== made !=, in cuda_check), which must be
# killed; a change that changes nothing, and one in a comment, which no test can see: both must be
# reported as survivors, with their places, and the run must fail, unless tests/mutants_accepted.txt
# accepts them (here, one of the two: still a failure).
# Then a sample of the course's own sites, drawn at random (the seed is printed: MUTANTS_SEED=S with
# MUTANTS_SAMPLE=N replays it), among those whose tests are quick from a fresh copy (MUTANTS_QUICK: the
# unit tests, the ledger, rules.t's readers, the hand-out targets' check) and that the committed record
# of the whole run (figures/data/mutants/results.tsv, MUTANTS_FROM) says were killed or accepted: a
# survivor the record lists, or a site added since, is never drawn, so the sample fails only where a
# test or tests/mutants_accepted.txt changed, not by the luck of the draw. Each sampled mutant must be
# killed, or accepted by tests/mutants_accepted.txt. MUTANTS_T_SAMPLE=N changes the sample's size (4).
# The copies are kept under output/test/mutants, so that a second run starts warm.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${MUTANTS_T_DIR:-$PWD/output/test/mutants}
tab=$(printf '\t')
command -v git >/dev/null 2>&1 || skip_all "no git: the mutation run copies what git sees"

# ==== The machinery can fail ====
# A real change, in cuda_check, against common/'s unit tests; a change that changes nothing (a traced
# number of README.md written as it was) and one in a comment of common/check.c, both against the ledger
# (which reads the README's prose, never a comment of check.c): deterministic tests, so that only the
# machinery can make these two anything but survivors.
line=$(grep -n 'if (err == cudaSuccess)' common/check.c | head -n 1 | cut -d: -f1)
col=$(sed -n "${line}p" common/check.c | awk '{ print index($0, "==") }')
cline=$(grep -n '^/\*' common/check.c | head -n 1 | cut -d: -f1)
awk -F'\t' '$1 == "README.md" && $4 == "data" { print $2 "\t" $3 }' figures/data/sources.tsv >"$tmp/rows"
while IFS="$tab" read -r number context; do  # (the first traced number of README.md whose context is one line)
    rline=$(grep -n -F -- "$context" README.md | head -n 1 | cut -d: -f1)
    [ -z "$rline" ] || break
done <"$tmp/rows"
rcol=$(sed -n "${rline:-0}p" README.md | awk -v c="$context" -v n="$number" '{ print index($0, c) + index(c, n) - 1 }')
rfrom=$(printf '%s' "$number" | cut -c1)
{
    printf 'aaaaaaaa0001\tcommon/check.c\t%s\t%s\teq_to_ne\thost\tunit;\t==\t!=\t\n' "$line" "$col"
    printf 'aaaaaaaa0002\tREADME.md\t%s\t%s\tnothing\thost\tledger;\t%s\t%s\t\n' "$rline" "$rcol" "$rfrom" "$rfrom"
    printf 'aaaaaaaa0003\tcommon/check.c\t%s\t1\tcomment\thost\tledger;\t/*\t/* (planted)\t\n' "$cline"
} >"$tmp/sites"
echo "aaaaaaaa0002 README.md:$rline a change that changes nothing (tests/mutants.t)" >"$tmp/accepted"
MUTANTS_DIR=$dir/machinery MUTANTS_SITES=$tmp/sites MUTANTS_ACCEPTED=$tmp/accepted sh tests/mutants.sh \
    >"$tmp/out" 2>&1
code=$?
report=$(cat "$tmp/out")
[ $code = 1 ] && grep -q -F "killed: 1 (timed out: 0); survived: 2 (accepted: 1, not accepted: 1)" "$tmp/out" &&
    [ -n "$rline" ] && [ -n "$rfrom" ]
ok $? "three planted sites: one killed, two survivors, one of them accepted; the run fails" "exit $code; $report"
grep -q -F "common/check.c:$cline:1: warning: Survived: Replaced /* with /* (planted) [comment] (id aaaaaaaa0003)" \
    "$tmp/out"
ok $? "the change no test can see (a comment) is a survivor, named by its place and id" "$report"
sed -n '/^# ==== Accepted survivors/,/^# ====/p' "$tmp/out" | grep -q "^aaaaaaaa0002 README.md:$rline:$rcol "
ok $? "the change that changes nothing is listed as accepted, with its reason" "$report"
! sed -n '/^# ==== Survivors/,/^# ==== Accepted/p' "$tmp/out" | grep -q -e aaaaaaaa0001 -e aaaaaaaa0002
ok $? "the killed and the accepted are not among the survivors" "$report"

# A record (MUTANTS_FROM) keeps its survivors out of a draw: of the three sites, the record's killed one
# is run, its survivor (aaaaaaaa0003) and a site it has not seen (aaaaaaaa0002) are not.
printf 'aaaaaaaa0001\tkilled\naaaaaaaa0003\tsurvived\n' | awk -F'\t' -v OFS='\t' \
    '{ print $1, "f", 1, 1, "op", "host", "unit;", "a", "b", "", $2, 1, "" }' >"$tmp/record"
MUTANTS_DIR=$dir/machinery MUTANTS_SITES=$tmp/sites MUTANTS_ACCEPTED=$tmp/accepted MUTANTS_FROM=$tmp/record \
    MUTANTS_SAMPLE=3 MUTANTS_SEED=1 sh tests/mutants.sh >"$tmp/out" 2>&1
code=$?
[ $code = 0 ] && grep -q '^mutants: 1 of 3 sites' "$tmp/out" &&
    grep -q '^killed: 1 (timed out: 0); survived: 0 ' "$tmp/out"
ok $? "a sample drawn from a record (MUTANTS_FROM) runs its killed mutant, never its survivor" \
    "exit $code; $(cat "$tmp/out")"

# ==== The course's sites: a sample ====
n=${MUTANTS_T_SAMPLE:-4}
record=figures/data/mutants/results.tsv
MUTANTS_DIR=$dir/sample MUTANTS_SAMPLE=$n MUTANTS_QUICK=1 MUTANTS_FROM=$record sh tests/mutants.sh \
    >"$tmp/out" 2>&1
code=$?
seed=$(sed -n 's/.*seed \([0-9]*\) (MUTANTS_SEED=.*/\1/p' "$tmp/out")
echo "# the sample: $n mutants, seed $seed (MUTANTS_SEED=$seed MUTANTS_SAMPLE=$n MUTANTS_QUICK=1" \
    "MUTANTS_FROM=$record make mutants)"
[ $code = 0 ] && [ -n "$seed" ] && grep -q "^sites: [0-9]*; planted: $n " "$tmp/out"
ok $? "$n sampled mutants (seed $seed): each killed, or accepted by tests/mutants_accepted.txt" \
    "exit $code; $(cat "$tmp/out")"
# Every site has its own id; the whole run has its 300; every accepted line names a site that exists.
sites=$dir/sample/sites.tsv
[ "$(cut -f1 "$sites" | sort | uniq -d | wc -l)" = 0 ] && [ "$(wc -l <"$sites")" -ge 300 ]
ok $? "$(wc -l <"$sites") sites, each with an id of its own" "$(cut -f1 "$sites" | sort | uniq -d | head -n 3)"
grep -v '^[[:space:]]*\(#\|$\)' tests/mutants_accepted.txt | awk '{ print $1 }' | sort >"$tmp/ids"
cut -f1 "$sites" | sort | comm -23 "$tmp/ids" - >"$tmp/unknown"
[ ! -s "$tmp/unknown" ]; ok $? "tests/mutants_accepted.txt names sites that exist" "$(head -n 5 "$tmp/unknown")"
done_testing
