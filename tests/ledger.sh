#!/bin/sh
# tests/ledger.sh [--missing | --show]: every number of the course's prose is traced. The prose is what a
# reader reads: the READMEs, CONTRIBUTING.md, every markdown cell of course.ipynb and each lab's statement
# (the first comment of labs/LAB.cu). Its numbers are those with a unit (ms, us, s, h, GB/s, TFLOP/s, %,
# x, times, GB, MiB, bytes, ...), the counts, in figures or words, of what they count ("14 SMs", "1,280
# blocks", "four debugging labs", "five first steps"; not "one", nor a count of none, nor a step's or an
# exercise's number), and every decimal. Outside the results tables that tests/tables.sh renders and
# labs/README.md's plan of sessions and its table's times (estimates tests/labs.t adds up), each is a row
# of figures/data/sources.tsv, which says what backs it, one tab-separated row per place:
#     DOCUMENT   number as written   context   kind   source   note
# The context is a piece of the document's text (line breaks read as spaces) that holds the number once
# and is found once in the document: grep for it to find the line. The kind says what the source is:
#     data     an awk expression over the committed files of figures/data/ (FILE below):
#                csv(FILE, PREFIX, COLUMN)   a field of the line that starts with PREFIX; COLUMN
#                                            its number, or its name in the file's header row
#                                            (its first line that is not a # comment)
#                num(FILE, TEXT, K)          the K-th number (K left out: the first) after TEXT, on the
#                                            first line that holds TEXT
#                numafter(FILE, ANCHOR, TEXT, K)  the same, on the first such line at or after the
#                                            first line that holds ANCHOR (a log of several programs)
#                nth(FILE, TEXT, K)          the K-th number of the first line that holds TEXT
#                colmin, colmax(FILE, PREFIX, COLUMN)  over the lines that start with PREFIX ("": all),
#                                            COLUMN as for csv()
#                at_min(FILE, PREFIX, COLUMN, KEY)  the KEY column of the line whose COLUMN is the least
#                bytes(FILE)                 the size of a committed file
#              with awk's arithmetic around them (1e3 * csv(...) for us from ms; min(), max()). A figure
#              the prose quotes from a document outside the course (a datasheet, a standard) is a line of
#              figures/data/documents.txt, which names the document: num("documents.txt", TEXT).
#     formula  the same, over several traced values or constants (a ratio, a percentage, 2 ^ 53)
#     code     what the course's own files say, read under the course's folder:
#                code(PATH, TEXT, K)         a constant, as num() reads it; codeafter(PATH, ANCHOR, TEXT, K)
#                                            as numafter()
#                spelled(PATH, TEXT)         a count the code writes in words, the word right after TEXT
#                lines(PATH, TEXT)           how many lines of PATH hold TEXT ("^TEXT": start with it)
#                words(PATH, TEXT)           how many words a string holds: after TEXT, to the next "
#                files(PATTERN)              how many files a pattern of the shell names ("labs/ch*.cu")
#     todo     a sentence another change owns; listed so that it is found, not yet traced
# No other kind: a number nothing in the course backs does not go in the prose. For data, formula and
# code the expression must give the number as written, at its printed precision (4190 from 4189.7,
# 2.6e-4 from 0.000261). A source may open with a relation instead of that equality: "~5 EXPR" (within
# 5% of the number: the prose says "about"), "> EXPR" or "< EXPR" (it says "over" or "below"), ">= EXPR",
# "<= EXPR" ("within 1%"). A range ("93-95%", "2 to 3 us") has one expression per number, separated by
# " ; ". The sources' functions are tests/ledger.awk's.
# Prints what fails and exits 1: a row whose context is gone or found twice, whose number is not in its
# context or is not a number of the prose there, whose source no longer gives its number, and a number
# of the prose that no row lists. --missing prints, instead, a row to fill in for each number no row
# lists; --show prints what every row's source gives.
# LEDGER_ROOT (default .) is the course's folder, where the documents and the code are read,
# LEDGER_DATA (default figures/data) the data and LEDGER_FILE the ledger, so that tests/ledger.t can
# plant faults in copies; LEDGER_KEEP=1 keeps the temporary folder.
set -u
# The documents whose prose is traced: the READMEs, CONTRIBUTING.md, the notebook's markdown cells and
# each lab's statement (the header comment of labs/LAB.cu), one a line; the labs' files are added below.
DOCS="
README.md
ch1_embarrassing/README.md
ch2_reduction/README.md
ch3_streams_events/README.md
ch4_atomics_mutex/README.md
ch5_matmul/README.md
labs/README.md
CONTRIBUTING.md
course.ipynb
"
ledger=${LEDGER_FILE:-figures/data/sources.tsv}
root=${LEDGER_ROOT:-.}
data=${LEDGER_DATA:-figures/data}
mode=${1:-check}
[ -f "$ledger" ] || { echo "ledger.sh: $ledger: no such file" >&2; exit 1; }
tmp=$(mktemp -d)
trap '[ -n "${LEDGER_KEEP:-}" ] || rm -rf "$tmp"' EXIT
for f in "$root"/labs/*.cu; do [ -f "$f" ] && DOCS="$DOCS labs/${f##*/}"; done

# What a reader reads of a document, as markdown: a README or CONTRIBUTING.md whole; the notebook's
# markdown cells, a blank line between two (course.ipynb as tests/notebook.py writes it: each line of a
# cell's source a JSON string on a line of its own); a lab's statement, its first comment without the
# comment's marks.
doc_text() {
    case $1 in
    *.ipynb) awk '
        function unescape(s,   out, c, i) {
            out = ""
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c == "\\") {
                    c = substr(s, ++i, 1)
                    if (c == "n") c = "\n"; else if (c == "t") c = "\t"
                    else if (c == "u") { c = "?"; i += 4 }  # (control characters only: nbformat writes UTF-8)
                }
                out = out c
            }
            return out
        }
        /^   "cell_type": / { markdown = $0 ~ /"markdown"/ }
        markdown && /^   "source": \[$/ { source = 1; next }
        source && /^   \]/ { source = 0; printf "\n\n"; next }
        source { s = $0; sub(/^ *"/, "", s); sub(/",?$/, "", s); printf "%s", unescape(s) }' "$root/$1" ;;
    *.cu) awk 'NR == 1 && !/^\/\*/ { exit }
        { s = $0; sub(/^(\/\*| \*\/| \*) ?/, "", s); sub(/ *\*\/$/, "", s); print s }
        /\*\// { exit }' "$root/$1" ;;
    *) cat "$root/$1" ;;
    esac
}

# What the ledger leaves to other tests: the rendered tables (tests/tables.t), and labs/README.md's plan
# of sessions and the time column of its table of labs, estimates that tests/labs.t adds up.
OWNED='
    /^<!-- table [a-z0-9_]+: / || /^<!-- plan: / { skip = 1; print " | "; next }
    /^<!-- end (table|plan) -->$/ { skip = 0; next }
    /^<!-- labs: / { labs = 1 } /^<!-- end labs -->$/ { labs = 0 }
    labs && /^\|/ { sub(/[^|]*\|[ \t]*$/, "") }'

# The prose of a document as one line: the tables above and headings left out (a table becomes " | ",
# which no context crosses), every run of white space one space.
prose() {
    awk '
        /^```/ { fence = !fence; print; next }'"$OWNED"'
        skip || (!fence && /^#/) { next }
        { print }' "$1" | tr '\n\t' '  ' | tr -s ' '
}

# The same prose a line at a time, as grep sees it: where a context is on one line.
prose_lines() {
    awk '
        /^```/ { fence = !fence; next }'"$OWNED"'
        skip || (!fence && /^#/) { next }
        { gsub(/[ \t]+/, " "); print }' "$1" | grep -v '^ | $'
}

# The numbers of a prose line: "offset<TAB>number as written", one a line.
AWK_NUMBERS='
BEGIN {
    words = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    words = words "|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand"
    n = "([0-9]+(,[0-9][0-9][0-9])*(\\.[0-9]+)?([eE][-+]?[0-9]+)?)"
    time = "(ns|us|µs|ms|s|seconds?|min|minutes?|h|hours?)"
    size = "(B|KB|kB|MB|GB|TB|KiB|MiB|GiB|TiB|bytes?)"
    rate = "(GB/s|TB/s|MB/s|Gb/s|GFLOP/s|TFLOP/s|PFLOP/s|GHz|MHz)"
    unit = "(%|x| times| " time "| ?" size "| " rate "|-bytes?)"
    # What a count counts (plural: "1 block" and "one block" are no count a reader checks).
    things = "SMs|GPUs|CPUs|cores|cards|blocks|threads|warps|warpgroups|lanes|registers|kernels|launches|streams"
    things = things "|events|graphs|nodes|ranks|processes|programs|files|lines|labs|chapters|sessions|students"
    things = things "|tests|checks|runs|grades|mistakes|cheats|tools|steps|stages|rungs|passes|iterations|ways"
    things = things "|rows|columns|tiles|chunks|segments|elements|values|floats|doubles|integers|bits|digits"
    things = things "|characters|words|letters|pixels|bins|counts|counters|slots|levels|fields|entries|cells"
    things = things "|arrays|copies|sums|products|reductions|additions|multiply-adds|operations|MMAs|loads"
    things = things "|stores|reads|writes|accesses|addresses|atomics|fences|exchanges|neighbours|accumulators"
    things = things "|sizes|primes|seeds|inputs|outputs|points|sentences|parts|errors|faults|deadlocks|waves"
    things = things "|tables|figures|pictures|images|directions|consumers|medians|calls"
    # A count in words with its unit or what it counts (a word between: "five first steps"; never "one",
    # which is mostly "a"), a number or a range with its unit, a count in figures, or a bare decimal. A
    # word may open a sentence: "Thirty labs".
    nw = split(words, w, "|"); cased = counted = ""
    for (i = 1; i <= nw; i++) {
        c = w[i] "|" toupper(substr(w[i], 1, 1)) substr(w[i], 2)
        cased = cased (i > 1 ? "|" : "") c
        if (w[i] != "one") counted = counted (counted != "" ? "|" : "") c
    }
    re = "((" cased ") (to (" words ") )?(" time "|times|thirds?))"
    re = re "|((" counted ")( to (" words "))? ([a-z-]+ )?(" things "))"
    re = re "|(" n "((-|–| to )" n ")?" unit ")"
    re = re "|(" n "((-|–| to )" n ")? ([a-z-]+ )?(" things "))"
    re = re "|([0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?)"
    # A word between a number and what it counts that makes it no count ("2 of the blocks", "4 x 4 tiles").
    stop = " (and|or|of|to|on|in|at|by|for|per|the|a|an|is|are|was|with|from|than|as|not|so|when|it|then|where"
    stop = stop "|up|x|vs|its|their|each|these|those|this|that|which|whose|but|into|over|under|out|while|if|once"
    stop = stop "|like) (" things ")$"
    # The words before a bare decimal that make it a version or an example number, not a quantity.
    versioned = "(CUDA|capability|[Ee]xamples?|Part|figure|release|MPI|clangd|nbformat|driver)"
    versioned = versioned " ([0-9.]+,? (and|or|to) )?$"
}
{
    s = $0; at = 0
    while (match(s, re)) {
        # A thing between a count and a verb that reads as a thing ("16 threads copies") is the count.
        if (split(substr(s, RSTART, RLENGTH), tw, " ") == 3 && tw[2] ~ "^(" things ")$" && tw[1] ~ /^[0-9A-Za-z]/)
            RLENGTH = length(tw[1] " " tw[2])
        start = at + RSTART; token = substr(s, RSTART, RLENGTH); next_char = substr(s, RSTART + RLENGTH, 1)
        before = start > 1 ? substr($0, start - 1, 1) : ""
        left = substr($0, start > 30 ? start - 30 : 1, start > 30 ? 30 : start - 1)
        keep = before !~ /[A-Za-z0-9_.^\/\\-]/ && next_char !~ /[A-Za-z0-9_]/
        # A minus sign that opens a word belongs to the number: -3.2 us.
        if (before == "-" && (start == 2 || substr($0, start - 2, 1) ~ /[ (]/)) keep = next_char !~ /[A-Za-z0-9_]/
        if (keep && token ~ /^[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?$/) {
            # A bare decimal: a version or an example number is no quantity.
            if (next_char == "." && substr(s, RSTART + RLENGTH + 1, 1) ~ /[0-9]/) keep = 0
            if (left ~ versioned) keep = 0
            if (before == "(" && next_char == ")") keep = 0
        }
        if (keep && token ~ stop) keep = 0
        # A count of none ("0 errors"), or the number of a step or an exercise before a verb ("Step 2
        # runs"), is no count.
        if (keep && token ~ "^0 (" things ")$") keep = 0
        if (keep && token ~ " (" things ")$" && substr($0, 1, start - 1) ~ /([Ss]tep|[Ee]xercise|[Pp]art) $/) keep = 0
        # The last term of an expression ("2^31 - 1 blocks") is no count of its own.
        if (keep && token ~ " (" things ")$" && substr($0, 1, start - 1) ~ /[0-9a-z)] [-+*\/<>] $/) keep = 0
        if (keep) print start "\t" token
        at += RSTART; s = substr(s, RSTART + 1)
        if (keep) { at += RLENGTH - 1; s = substr(s, RLENGTH) }
    }
}'

: >"$tmp/found"
for readme in $DOCS; do
    doc_text "$readme" >"$tmp/src.$(echo "$readme" | tr / _)" || exit 1
    prose "$tmp/src.$(echo "$readme" | tr / _)" >"$tmp/prose"
    cp "$tmp/prose" "$tmp/prose.$(echo "$readme" | tr / _)"
    awk "$AWK_NUMBERS" "$tmp/prose" | sed "s|^|$readme\t|" >>"$tmp/found"
done

# Each row of the ledger: where its number sits in the prose, and an awk line that computes its
# source. Rows whose place cannot be found are reported here.
awk -F'\t' -v tmp="$tmp" '
    function prose_of(readme,   f, l) {
        if (readme in text) return text[readme]
        f = readme; gsub(/\//, "_", f); f = tmp "/prose." f
        if ((getline l < f) <= 0) l = ""
        close(f); return text[readme] = l
    }
    # Where token stands alone in s (not inside a longer number): its offsets, separated by spaces.
    function places(s, token,   at, i, out, b, a) {
        at = 0; out = ""
        while ((i = index(substr(s, at + 1), token)) > 0) {
            at += i; b = at > 1 ? substr(s, at - 1, 1) : ""; a = substr(s, at + length(token), 1)
            if (b !~ /[0-9.,A-Za-z_]/ && a !~ /[0-9A-Za-z_]/) out = out " " at
        }
        return out
    }
    function count(s, t,   n, i, at) {  # how many times t is in s
        n = 0; at = 0
        while ((i = index(substr(s, at + 1), t)) > 0) { n++; at += i }
        return n
    }
    /^#/ || NF == 0 { next }
    NF < 5 || $3 == "" { print "bad\t" FNR "\t" $0 "\t(fewer than 5 columns, or no context)"; next }
    {
        readme = $1; token = $2; ctx = $3; kind = $4; source = $5
        s = prose_of(readme)
        if (s == "") { print "bad\t" FNR "\t" $0 "\t(no such README in the ledger'"'"'s scope)"; next }
        if (count(s, ctx) != 1) {
            print "bad\t" FNR "\t" readme ": " token "\t(context found " count(s, ctx) " times: \"" ctx "\")"
            next
        }
        p = places(ctx, token)
        if (split(p, w, " ") != 1) {
            times = p == "" ? "not" : "more than once"
            print "bad\t" FNR "\t" readme ": " token "\t(the number is " times " in its context \"" ctx "\")"
            next
        }
        print "row\t" FNR "\t" readme "\t" index(s, ctx) + w[1] - 1 "\t" token "\t" kind "\t" source
    }' "$ledger" >"$tmp/rows"

# Numbers in the prose that no row lists, and rows on a place where the prose has no such number.
awk -F'\t' '
    FILENAME ~ /found$/ { at[$1 "\t" $2] = $3; next }
    $1 == "row" { listed[$3 "\t" $4] = $5; line[$3 "\t" $4] = $2 }
    END {
        for (k in listed) if (!(k in at) || at[k] != listed[k]) {
            split(k, w, "\t"); reads = (k in at) ? "; it reads \"" at[k] "\"" : ""
            print "bad\t" line[k] "\t" w[1] ": " listed[k] \
                  "\t(no number \"" listed[k] "\" of the prose starts there" reads ")"
        }
        for (k in at) if (!(k in listed)) { split(k, w, "\t"); print "missing\t" w[1] "\t" w[2] "\t" at[k] }
    }' "$tmp/found" "$tmp/rows" >"$tmp/coverage"

if [ "$mode" = --missing ]; then
    # A row to fill in for each number no row lists, with the shortest context around it, in whole
    # words, that is found once in its README and lies on one line of it where it can (grep finds it).
    grep '^missing' "$tmp/coverage" | sort -t"$(printf '\t')" -k2,2 -k3,3n |
    while IFS="$(printf '\t')" read -r _ readme start token; do
        f=$tmp/prose.$(echo "$readme" | tr / _)
        prose_lines "$tmp/src.$(echo "$readme" | tr / _)" >"$tmp/lines"
        awk -v start="$start" -v token="$token" -v readme="$readme" '
            function count(s, t,   n, i, at) {  # how many times t is in s
                n = 0; at = 0
                while ((i = index(substr(s, at + 1), t)) > 0) { n++; at += i }
                return n
            }
            function on_a_line(t,   i) { for (i = 1; i <= nl; i++) if (index(line[i], t)) return 1; return 0 }
            function left(a) {  # the start of the word before offset a
                while (a > 1 && substr(s, a - 1, 1) == " ") a--
                while (a > 1 && substr(s, a - 1, 1) != " ") a--
                return a
            }
            function right(b) {  # the end of the word after offset b
                while (b <= length(s) && substr(s, b, 1) == " ") b++
                while (b <= length(s) && substr(s, b, 1) != " ") b++
                return b
            }
            FILENAME ~ /lines$/ { line[++nl] = $0; next }
            { s = $0 }
            END {
                a = start; b = start + length(token); free_a = free_b = 1; ctx = ""
                for (step = 0; step < 60 && (free_a || free_b); step++) {
                    if (step % 2 == 0 ? free_a : !free_b) { na = left(a); nb = b } else { na = a; nb = right(b) }
                    if (na == a && nb == b || !on_a_line(substr(s, na, nb - na))) {
                        if (step % 2 == 0 ? free_a : !free_b) free_a = 0; else free_b = 0
                        continue
                    }
                    a = na; b = nb
                    if (count(s, substr(s, a, b - a)) == 1) { ctx = substr(s, a, b - a); break }
                }
                if (ctx == "") {  # no single line holds a unique context: grow across lines
                    a = start; b = start + length(token)
                    for (step = 0; step < 60; step++) {
                        if (step % 2 == 0) a = left(a); else b = right(b)
                        if (count(s, substr(s, a, b - a)) == 1) break
                    }
                    ctx = substr(s, a, b - a)
                }
                printf "%s\t%s\t%s\t?\t?\t\n", readme, token, ctx }' "$tmp/lines" "$f"
    done
    exit 0
fi

# The sources: one awk program that computes every row and compares it with its number as written.
awk -F'\t' '
    $1 != "row" { next }
    {
        kind = $6; source = $7; rel = "="
        if (kind == "todo") {
            printf "verdict(%d, \"%s\", \"%s\", \"skip\", \"%s\")\n", $2, $3, $5, kind
            next
        }
        if (kind != "data" && kind != "formula" && kind != "code") {
            printf "verdict(%d, \"%s\", \"%s\", \"kind\", \"%s\")\n", $2, $3, $5, kind
            next
        }
        if (match(source, /^(~[0-9.]+|>=|<=|>|<) /)) {
            rel = substr(source, 1, RLENGTH - 1); source = substr(source, RLENGTH + 1)
        }
        n = split(source, parts, / ; /)
        printf "err = \"\"; nv = 0\n"
        for (i = 1; i <= n; i++) printf "v[++nv] = (%s)\n", parts[i]
        printf "verdict(%d, \"%s\", \"%s\", \"%s\", \"%s\")\n", $2, $3, $5, rel, kind
    }' "$tmp/rows" >"$tmp/program.body"

{ echo "BEGIN {"; echo "setup()"; cat "$tmp/program.body"; echo "}"; } >"$tmp/program.begin"
awk -v data="$data" -v root="$root" -f "$(dirname "$0")/ledger.awk" -f "$tmp/program.begin" </dev/null \
    >"$tmp/verdicts" 2>"$tmp/awk_errors" || [ -s "$tmp/awk_errors" ] || echo "awk failed" >"$tmp/awk_errors"
if [ -s "$tmp/awk_errors" ]; then
    echo "ledger.sh: the sources of $ledger could not be computed:" >&2
    cat "$tmp/awk_errors" >&2
    exit 1
fi
if [ "$mode" = --show ]; then
    grep '^value' "$tmp/verdicts" | cut -f3,4 | sed 's/\t/ <- /'
    exit 0
fi

status=0
if grep -q '^bad' "$tmp/rows" "$tmp/coverage" "$tmp/verdicts"; then
    cat "$tmp/rows" "$tmp/coverage" "$tmp/verdicts" | awk -F'\t' -v ledger="$ledger" '
        $1 == "bad" { print ledger ":" $2 ": " $3 " " $4 }' | sort -t: -k2,2n
    status=1
fi
if grep -q '^missing' "$tmp/coverage"; then
    echo "numbers in the prose that no row of $ledger lists (sh tests/ledger.sh --missing prints rows to fill in):"
    grep '^missing' "$tmp/coverage" | sort -t"$(printf '\t')" -k2,2 -k3,3n | cut -f2,4 | sed 's/\t/: /'
    status=1
fi
exit $status
