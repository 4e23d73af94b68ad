#!/bin/sh
# tests/ledger.sh [--missing | --show]: every number the READMEs' prose quotes is traced. A number with
# a unit (ms, us, s, minutes, GB/s, TFLOP/s, %, x, times, GB, MiB, bytes, ...) and every decimal number
# outside a results table that tests/tables.sh renders is a row of figures/data/sources.tsv, which says
# where it comes from, one tab-separated row per place:
#     README   number as written   context   kind   source   note
# The context is a piece of the README's text (line breaks read as spaces) that holds the number once
# and is found once in the README: grep for it to find the line. The kind says what the source is:
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
#                bytes(FILE)                 the size of a committed file
#              with awk's arithmetic around them (1e3 * csv(...) for us from ms; min(), max())
#     formula  the same, over several traced values or constants (a ratio, a percentage, 2 ^ 53)
#     code     code(PATH, TEXT, K): a constant of the course's own source, as num() reads it
#     doc      a document or a datasheet, named in the source column; nothing to compute
#     text     a number that is no measurement (an instruction to the reader), said in the source
#     todo     a sentence another change owns; listed so that it is found, not yet traced
# For data, formula and code the expression must give the number as written, at its printed precision
# (4190 from 4189.7, 2.6e-4 from 0.000261). A source may open with a relation instead of that
# equality: "~5 EXPR" (within 5% of the number: the README says "about"), "> EXPR" or "< EXPR" (the
# README says "over" or "below"), ">= EXPR", "<= EXPR" ("within 1%"). A range ("93-95%", "2 to 3 us")
# has one expression per number, separated by " ; ".
# Prints what fails and exits 1: a row whose context is gone or found twice, whose number is not in its
# context or is not a number of the prose there, whose source no longer gives its number, and a number
# of the prose that no row lists. --missing prints, instead, a row to fill in for each number no row
# lists; --show prints what every row's source gives.
# LEDGER_ROOT (default .) is where the READMEs are read, LEDGER_DATA (default figures/data) the data and
# LEDGER_FILE the ledger, so that tests/ledger.t can plant faults in copies; LEDGER_KEEP=1 keeps the
# temporary folder.
set -u
# The READMEs whose prose is traced, one a line.
READMES="
README.md
ch1_embarrassing/README.md
ch2_reduction/README.md
ch3_streams_events/README.md
ch4_atomics_mutex/README.md
ch5_matmul/README.md
labs/README.md
"
ledger=${LEDGER_FILE:-figures/data/sources.tsv}
root=${LEDGER_ROOT:-.}
data=${LEDGER_DATA:-figures/data}
mode=${1:-check}
[ -f "$ledger" ] || { echo "ledger.sh: $ledger: no such file" >&2; exit 1; }
tmp=$(mktemp -d)
trap '[ -n "${LEDGER_KEEP:-}" ] || rm -rf "$tmp"' EXIT

# The prose of a README as one line: rendered tables and headings left out (a table becomes " | ",
# which no context crosses), every run of white space one space.
prose() {
    awk '
        /^```/ { fence = !fence; print; next }
        /^<!-- table [a-z0-9_]+: / { skip = 1; print " | "; next }
        /^<!-- end table -->$/ { skip = 0; next }
        skip || (!fence && /^#/) { next }
        { print }' "$1" | tr '\n\t' '  ' | tr -s ' '
}

# The same prose a line at a time, as grep sees it: where a context is on one line.
prose_lines() {
    awk '
        /^```/ { fence = !fence; next }
        /^<!-- table [a-z0-9_]+: / { skip = 1; next }
        /^<!-- end table -->$/ { skip = 0; next }
        skip || (!fence && /^#/) { next }
        { gsub(/[ \t]+/, " "); print }' "$1"
}

# The numbers of a prose line: "offset<TAB>number as written", one a line.
AWK_NUMBERS='
BEGIN {
    words = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    words = words "|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand"
    n = "([0-9]+(,[0-9][0-9][0-9])*(\\.[0-9]+)?([eE][-+]?[0-9]+)?)"
    time = "(ns|us|µs|ms|s|seconds?|min|minutes?|hours?)"
    size = "(B|KB|kB|MB|GB|TB|KiB|MiB|GiB|TiB|bytes?)"
    rate = "(GB/s|TB/s|MB/s|Gb/s|GFLOP/s|TFLOP/s|PFLOP/s|GHz|MHz)"
    unit = "(%|x| times| " time "| ?" size "| " rate "|-bytes?)"
    # A count in words with its unit, a number or a range with its unit, or a bare decimal.
    re = "((" words ") (to (" words ") )?(" time "|times|thirds?))"
    re = re "|(" n "((-|–| to )" n ")?" unit ")"
    re = re "|([0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?)"
    # The words before a bare decimal that make it a version or an example number, not a quantity.
    versioned = "(CUDA|capability|[Ee]xamples?|Part|figure|release|MPI|clangd|nbformat|driver)"
    versioned = versioned " ([0-9.]+,? (and|or|to) )?$"
}
{
    s = $0; at = 0
    while (match(s, re)) {
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
        if (keep) print start "\t" token
        at += RSTART; s = substr(s, RSTART + 1)
        if (keep) { at += RLENGTH - 1; s = substr(s, RLENGTH) }
    }
}'

: >"$tmp/found"
for readme in $READMES; do
    prose "$root/$readme" >"$tmp/prose"
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
    NF < 5 { print "bad\t" FNR "\t" $0 "\t(fewer than 5 columns)"; next }
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
        prose_lines "$root/$readme" >"$tmp/lines"
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
        if (kind == "doc" || kind == "text" || kind == "todo") {
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

cat >"$tmp/program.awk" <<'EOF'
function fail(what) { if (err == "") err = what; return 1 }  # 1: no division by zero after it
# The first line of path that holds text (that starts with it: how == "prefix"), at or after the first
# line that holds anchor.
function line_of(path, text, how, anchor,   l, found, on) {
    found = ""; on = anchor == ""
    while ((getline l < path) > 0) {
        if (!on && index(l, anchor)) on = 1
        if (on && (how == "prefix" ? index(l, text) == 1 : index(l, text) > 0)) { found = l; break }
    }
    close(path)
    if (found == "")
        fail(path ": no line " (how == "prefix" ? "starts with" : "holds") " \"" text "\"" \
             (anchor == "" ? "" : " after \"" anchor "\""))
    return found
}
# The k-th number (1 when k is left out) after text on that line.
function number_after(path, text, k, anchor,   l, rest, i) {
    l = line_of(path, text, "in", anchor); if (l == "") return 0
    rest = substr(l, index(l, text) + length(text))
    for (i = 1; i <= (k ? k : 1); i++) {
        if (!match(rest, /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/))
            return fail(path ": no number " (k ? k : 1) " after \"" text "\"")
        if (i < (k ? k : 1)) rest = substr(rest, RSTART + RLENGTH)
    }
    return substr(rest, RSTART, RLENGTH) + 0
}
# The k-th number of the first line that holds text, counted from the line's start.
function nth(file, text, k,   path, l, i) {
    path = data "/" file; l = line_of(path, text, "in"); if (l == "") return 0
    for (i = 1; i <= k; i++) {
        if (!match(l, /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/))
            return fail(path ": no number " k " on the line of \"" text "\"")
        if (i < k) l = substr(l, RSTART + RLENGTH)
    }
    return substr(l, RSTART, RLENGTH) + 0
}
function num(file, text, k) { return number_after(data "/" file, text, k) }
function numafter(file, anchor, text, k) { return number_after(data "/" file, text, k, anchor) }
function code(file, text, k) { return number_after(file, text, k) }
function field(path, l, column,   f) {
    split(l, f, path ~ /\.tsv$/ ? "\t" : ",")
    return f[column]
}
# A column by its number, or by its name in the header row (the first line that is not a # comment).
function column_of(path, column,   l, f, i, n) {
    if (column ~ /^[0-9]+$/) return column
    while ((getline l < path) > 0) if (l !~ /^#/) break
    close(path)
    n = split(l, f, path ~ /\.tsv$/ ? "\t" : ",")
    for (i = 1; i <= n; i++) if (f[i] == column) return i
    fail(path ": no column \"" column "\" in its header row")
    return 0
}
function csv(file, prefix, column,   l, v, path) {
    path = data "/" file; if (!(column = column_of(path, column))) return 0
    l = line_of(path, prefix, "prefix"); if (l == "") return 0
    v = field(path, l, column)
    if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/)
        return fail(path ": field " column " of \"" prefix "\" is \"" v "\", not a number")
    return v + 0
}
# The smallest and the largest number in a column, over the lines that start with prefix.
function column_end(file, prefix, column, largest,   path, l, v, best, n) {
    path = data "/" file; n = 0
    if (!(column = column_of(path, column))) return 0
    while ((getline l < path) > 0) {
        if ((prefix != "" && index(l, prefix) != 1) || l ~ /^#/) continue
        v = field(path, l, column)
        if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) continue
        if (n++ == 0 || (largest ? v + 0 > best : v + 0 < best)) best = v + 0
    }
    close(path)
    return n ? best : fail(path ": no number in column " column " of the lines that start with \"" prefix "\"")
}
function colmin(file, prefix, column) { return column_end(file, prefix, column, 0) }
function colmax(file, prefix, column) { return column_end(file, prefix, column, 1) }
# The smallest and the largest of two to six values.
function min(a, b, c, d, e, f,   m) {
    m = a; if (b < m) m = b
    if (c != "" && c < m) m = c; if (d != "" && d < m) m = d
    if (e != "" && e < m) m = e; if (f != "" && f < m) m = f
    return m
}
function max(a, b, c, d, e, f,   m) {
    m = a; if (b > m) m = b
    if (c != "" && c > m) m = c; if (d != "" && d > m) m = d
    if (e != "" && e > m) m = e; if (f != "" && f > m) m = f
    return m
}
# The size in bytes of a committed file.
function bytes(file,   path, cmd, size) {
    path = data "/" file; cmd = "wc -c < \"" path "\" 2>/dev/null"
    size = ""
    if ((cmd | getline size) <= 0) size = ""
    close(cmd)
    return size == "" ? fail(path ": no such file") : size + 0
}
# A number as written, as a value: 16,384 and 2.6e-4 and the words.
function value(w) {
    gsub(/,/, "", w)
    if (w ~ / thirds?$/) { sub(/ thirds?$/, "", w); return (w in word ? word[w] : w) / 3 }
    if (w in word) return word[w]
    return w + 0
}
# v printed at the precision of w.
function like(v, w,   d, m, s) {
    gsub(/,/, "", w)
    if (w in word) return sprintf("%.0f", v) == sprintf("%.0f", word[w]) ? w : sprintf("%.0f", v)
    if (match(w, /[eE]/)) {
        m = substr(w, 1, RSTART - 1); d = index(m, ".") ? length(m) - index(m, ".") : 0
        s = sprintf("%." d "e", v); sub(/e\+0*/, "e", s); sub(/e-0*/, "e-", s); sub(/e$/, "e0", s)
        return s
    }
    d = index(w, ".") ? length(w) - index(w, ".") : 0
    return sprintf("%." d "f", v)
}
function verdict(row, readme, token, rel, kind,   k, w, nw, got, ok, what, t, why) {
    if (rel == "skip") { print "ok\t" row; print "value\t" row "\t" readme ": " token "\t(" kind ")"; return }
    if (rel == "kind") {
        print "bad\t" row "\t" readme ": " token "\t(a kind that is not data, formula, code, doc, text or todo)"
        return
    }
    nw = 0; t = token
    while (match(t, number_re)) { w[++nw] = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH) }
    if (err == "" && nv != nw) err = nv " values for " nw " numbers"
    ok = err == ""; what = ""
    for (k = 1; ok && k <= nw; k++) {
        got = v[k]
        if (rel == "=") ok = like(got, w[k]) == like(value(w[k]), w[k])
        else if (rel ~ /^~/)
            ok = value(w[k]) != 0 && (got - value(w[k])) / value(w[k]) <= substr(rel, 2) / 100 &&
                 (value(w[k]) - got) / value(w[k]) <= substr(rel, 2) / 100
        else if (rel == ">") ok = got > value(w[k])
        else if (rel == "<") ok = got < value(w[k])
        else if (rel == ">=") ok = got >= value(w[k])
        else if (rel == "<=") ok = got <= value(w[k])
        what = what (k > 1 ? " ; " : "") (rel == "=" ? like(got, w[k]) : sprintf("%.3g", got))
    }
    print "value\t" row "\t" readme ": " token "\t" what (rel == "=" ? "" : " (" rel ")")
    if (ok) print "ok\t" row
    else {
        why = err != "" ? err : "the source gives " what (rel == "=" ? "" : ", not " rel " " token)
        print "bad\t" row "\t" readme ": " token "\t(" why ")"
    }
}
BEGIN {
    split("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" \
          " seventeen eighteen nineteen twenty", names, " ")
    for (i = 1; i <= 20; i++) word[names[i]] = i
    word["thirty"] = 30; word["forty"] = 40; word["fifty"] = 50; word["hundred"] = 100; word["thousand"] = 1000
    number_re = "[0-9]+(,[0-9][0-9][0-9])*(\\.[0-9]+)?([eE][-+]?[0-9]+)?"
    for (w in word) number_re = number_re "|" w "( thirds?)?"
EOF
cat "$tmp/program.body" >>"$tmp/program.awk"
echo "}" >>"$tmp/program.awk"
awk -v data="$data" -f "$tmp/program.awk" </dev/null >"$tmp/verdicts" 2>"$tmp/awk_errors" ||
    [ -s "$tmp/awk_errors" ] || echo "awk failed" >"$tmp/awk_errors"
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
