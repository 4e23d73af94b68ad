# tests/ledger.awk, for tests/ledger.sh: the functions a row's source calls, and the verdict on each row.
# ledger.sh runs this file with a BEGIN block of its own after it, which calls setup() and then, for each
# row, sets v[1..nv] to its source's values and calls verdict(). data is the folder of the committed data
# (figures/data), root the course's (code, lines and files read there).
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
function code(file, text, k) { return number_after(root "/" file, text, k) }
function codeafter(file, anchor, text, k) { return number_after(root "/" file, text, k, anchor) }
# A count the course's code writes in words: the word right after text ("The textbook's three kernels").
function spelled(file, text,   path, l, w) {
    path = root "/" file; l = line_of(path, text, "in"); if (l == "") return 0
    w = tolower(substr(l, index(l, text) + length(text)))
    sub(/^[^a-z0-9]*/, "", w); match(w, /^[a-z0-9]+/); w = substr(w, 1, RLENGTH)
    return w in word ? word[w] : w ~ /^[0-9]+$/ ? w + 0 : fail(path ": \"" w "\" after \"" text "\" is no number")
}
# How many words (between spaces) a string of the code holds: the text after text on its first line, up to
# the next double quote (words("tests/labs.t", "n = split(\"") counts the fields it splits).
function words(file, text,   path, l, s, w, n) {
    path = root "/" file; l = line_of(path, text, "in"); if (l == "") return 0
    s = substr(l, index(l, text) + length(text)); sub(/".*/, "", s)
    n = split(s, w, " ")
    return n ? n : fail(path ": no word after \"" text "\"")
}
# How many lines of a file of the course hold text (start with it: "^text"); how many files a pattern of
# the shell names (under root: files("labs/ch*.cu")).
function lines(file, text,   path, l, n, start) {
    path = root "/" file; n = 0; start = substr(text, 1, 1) == "^"
    if (start) text = substr(text, 2)
    while ((getline l < path) > 0) if (start ? index(l, text) == 1 : index(l, text) > 0) n++
    close(path)
    return n ? n : fail(path ": no line holds \"" text "\"")
}
function files(pattern,   cmd, n) {
    cmd = "cd \"" root "\" && for f in " pattern "; do [ -e \"$f\" ] && echo; done | wc -l"
    n = 0; cmd | getline n; close(cmd)
    return n + 0 ? n + 0 : fail(root "/" pattern ": no such file")
}
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
# The key column of the line, of those that start with prefix, whose value column is the smallest.
function at_min(file, prefix, column, key,   path, l, v, best, at, n) {
    path = data "/" file; n = 0
    if (!(column = column_of(path, column)) || !(key = column_of(path, key))) return 0
    while ((getline l < path) > 0) {
        if (index(l, prefix) != 1 || l ~ /^#/) continue
        v = field(path, l, column)
        if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) continue
        if (n++ == 0 || v + 0 < best) { best = v + 0; at = field(path, l, key) }
    }
    close(path)
    return n ? at + 0 : fail(path ": no number in column " column " of the lines that start with \"" prefix "\"")
}
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
function verdict(row, readme, token, rel, kind,   k, w, nw, got, ok, what, t, why, piece, after, before, prev) {
    if (rel == "skip") { print "ok\t" row; print "value\t" row "\t" readme ": " token "\t(" kind ")"; return }
    if (rel == "kind") {
        print "bad\t" row "\t" readme ": " token "\t(a kind that is not data, formula, code or todo)"
        return
    }
    # The numbers of the token, a number in words only as a word of its own ("ten", not "tens").
    nw = 0; t = tolower(token); before = ""
    while (match(t, number_re)) {
        piece = substr(t, RSTART, RLENGTH); after = substr(t, RSTART + RLENGTH, 1)
        prev = RSTART > 1 ? substr(t, RSTART - 1, 1) : substr(before, length(before), 1)
        if (piece ~ /^[0-9]/ || (prev !~ /[a-z]/ && after !~ /[a-z]/))
            w[++nw] = piece
        before = before substr(t, 1, RSTART + RLENGTH - 1); t = substr(t, RSTART + RLENGTH)
    }
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
function setup(   names, i, w) {
    split("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" \
          " seventeen eighteen nineteen twenty", names, " ")
    for (i = 1; i <= 20; i++) word[names[i]] = i
    word["thirty"] = 30; word["forty"] = 40; word["fifty"] = 50; word["hundred"] = 100; word["thousand"] = 1000
    number_re = "[0-9]+(,[0-9][0-9][0-9])*(\\.[0-9]+)?([eE][-+]?[0-9]+)?"
    for (w in word) number_re = number_re "|" w "( thirds?)?"
}
