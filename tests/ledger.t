#!/bin/sh
# Every number of the READMEs' prose is rendered from figures/data/ (tests/tables.t) or traced by a row
# of figures/data/sources.tsv to the committed file, formula or document it comes from, and its source
# still gives it (tests/ledger.sh). Then the faults the test is for are planted in copies, and each
# must make ledger.sh fail: a digit of a traced number changed in a README; the same change made in the
# ledger's row too, so that only the data can tell; a value changed in the data; a column named that the
# data lacks; a number added to the prose with no row.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ledger=figures/data/sources.tsv
out=$(sh tests/ledger.sh 2>&1)
ok $? "every number of the READMEs' prose is rendered or traced, and its source still gives it" "$out"

# Rows another change owns are listed but not traced yet: TODO tests, which prove shows and passes.
awk -F'\t' '!/^#/ && $4 == "todo" { print $1 ": " $2 " (" $5 ")" }' "$ledger" >"$tmp/todo"
while IFS= read -r row; do
    count=$((count + 1))
    echo "not ok $count - $row is traced # TODO not yet: another change owns its sentence"
done <"$tmp/todo"

# Copies of the READMEs, the data and the ledger to plant faults in.
for f in README.md */README.md; do mkdir -p "$(dirname "$tmp/root/$f")"; cp "$f" "$tmp/root/$f"; done
cp -R figures/data "$tmp/data"
# The first row of a decimal number traced to one field of a CSV file, with no relation, whose context
# is on one line.
tab=$(printf '\t')
awk -F'\t' '!/^#/ && $4 == "data" && $2 ~ /[0-9]\.[0-9]/ && $5 ~ /^csv\("[^"]*", "[^"]*", [0-9]+\)$/ { print }' \
    "$ledger" >"$tmp/rows"
while IFS="$tab" read -r readme number context _ source _; do
    grep -qF -- "$context" "$readme" && break
done <"$tmp/rows"
# Its number with the last digit changed (9 becomes 0).
changed=$(echo "$number" | awk '{ match($0, /[0-9][^0-9]*$/); d = substr($0, RSTART, 1)
    print substr($0, 1, RSTART - 1) (d + 1) % 10 substr($0, RSTART + 1) }')
new_context=$(printf '%s' "$context" | awk -v a="$number" -v b="$changed" '
    { i = index($0, a); print substr($0, 1, i - 1) b substr($0, i + length(a)) }')
replace() {  # replace FILE OLD NEW: OLD's first occurrence, on one line
    awk -v a="$2" -v b="$3" '
        !done && (i = index($0, a)) { $0 = substr($0, 1, i - 1) b substr($0, i + length(a)); done = 1 }
        { print }' "$1" >"$1.new" &&
        mv "$1.new" "$1"
}

# 1. A digit changed in the README.
replace "$tmp/root/$readme" "$context" "$new_context"
out=$(LEDGER_ROOT="$tmp/root" sh tests/ledger.sh 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -qF "$readme: $changed"
ok $? "a digit changed in $readme ($number to $changed) fails" "$out"

# 2. The same change in the ledger's row: now only the data can say that it is wrong.
awk -F'\t' -v OFS='\t' -v c="$context" -v n="$number" -v nc="$new_context" -v nn="$changed" \
    '$3 == c && $2 == n && !done { $2 = nn; $3 = nc; done = 1 } { print }' "$ledger" >"$tmp/sources.tsv"
out=$(LEDGER_ROOT="$tmp/root" LEDGER_FILE="$tmp/sources.tsv" sh tests/ledger.sh 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -F "$readme: $changed" | grep -qF "the source gives"
ok $? "the same change made in the ledger too fails on the data's value" "$out"

# 3. A value changed in the data (the field doubled), the READMEs as they are.
file=$(echo "$source" | sed 's/^csv("\([^"]*\)".*/\1/')
prefix=$(echo "$source" | sed 's/^csv("[^"]*", "\([^"]*\)".*/\1/')
column=$(echo "$source" | sed 's/.*, \([0-9]*\))$/\1/')
awk -F, -v OFS=, -v p="$prefix" -v c="$column" 'index($0, p) == 1 && !done { $c = 2 * $c; done = 1 } { print }' \
    "figures/data/$file" >"$tmp/data/$file"
out=$(LEDGER_DATA="$tmp/data" sh tests/ledger.sh 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -F "$readme: $number" | grep -qF "the source gives"
ok $? "a value changed in figures/data/$file fails ($readme: $number)" "$out"

# 4. A number added to the prose with no row.
cp README.md "$tmp/root/README.md"
printf '\nA claim no row traces: it takes 12.5 ms.\n' >>"$tmp/root/README.md"
out=$(LEDGER_ROOT="$tmp/root" sh tests/ledger.sh 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -qF "README.md: 12.5 ms"
ok $? "a number added to the prose with no row fails" "$out"

# 5. A column named in a row (its name in the file's header row) that the file lacks.
sed 's/"percent_of_solution")/"percent_of_solutions")/' "$ledger" >"$tmp/named.tsv"
out=$(LEDGER_FILE="$tmp/named.tsv" sh tests/ledger.sh 2>&1)
[ $? -eq 1 ] && ! cmp -s "$ledger" "$tmp/named.tsv" &&
    echo "$out" | grep -qF 'no column "percent_of_solutions" in its header row'
ok $? "a column named that the file's header row lacks fails, naming it" "$out"
done_testing
