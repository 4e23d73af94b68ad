# tests/mutants_sites.awk: the places where tests/mutants.sh plants a change, read from one source file
# (awk -v lang=c|awk|sh|rules|targets -v file=PATH PATH). One line a site, in the file's order:
#     LINE <tab> COLUMN <tab> OPERATOR <tab> FROM <tab> TO
# the change being FROM, found at COLUMN of LINE, written TO (a deleted line: FROM the line, TO empty);
# in C, a fifth field: the function the line is in.
# The operators are Mull's where Mull has one (https://github.com/mull-project/mull, its mutators
# cxx_lt_to_le, cxx_le_to_lt, cxx_gt_to_ge, cxx_ge_to_gt, cxx_eq_to_ne, cxx_ne_to_eq, cxx_remove_void_call):
#   lt_to_le le_to_lt gt_to_ge ge_to_gt eq_to_ne ne_to_eq   a comparison flipped at its boundary, or negated:
#                          C and awk (<, <=, >, >=, ==, !=), sh inside [ ] (-lt -le -gt -ge -eq -ne, = !=)
#   tolerance_doubled      C: a tolerance's definition, a use of FLOAT_ROUNDING, "<= tolerance" made twice
#   line_deleted           sh and awk: a line that is a whole command (Mull's cxx_remove_void_call in kind);
#                          rules: a rule that every lab has ("*": the others are the same few rules, lab by lab)
#   number_changed         rules: a count (timed N, ranks N) plus one; targets: a target doubled (either class)
# Code that runs on the GPU (a __global__ or __device__ function's body) is left out: the judges'
# host side is what is mutated. Comments, strings, preprocessor lines (but a tolerance's #define) and, in
# sh, single-quoted programs and here-documents are never touched.
function out(col, op, from, to) { print NR "\t" col "\t" op "\t" from "\t" to (lang == "c" ? "\t" fn : "") }
# mask(s): s with what is no code blanked out, column for column: strings, comments (C: /* */ across
# lines, //; awk and sh: # to the end), character constants; sh's single quotes across lines too.
function mask(s,    r, i, c, c2, n) {
    r = ""; n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1); c2 = substr(s, i, 2)
        if (incomment) {
            if (c2 == "*/") { incomment = 0; r = r "  "; i++ } else r = r " "
            continue
        }
        if (insingle) { if (c == "'") insingle = 0; r = r " "; continue }
        if (indouble) {
            if (c == "\\") { r = r "  "; i++; continue }
            if (c == "\"") indouble = 0
            r = r " "; continue
        }
        if (lang == "c" && c2 == "/*") { incomment = 1; r = r "  "; i++; continue }
        if (lang == "c" && c2 == "//") break
        if (lang != "c" && c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t;]/)) break
        if (lang == "sh" && c == "\\") { r = r (i < n ? "\\ " : "\\"); i++; continue }
        if (c == "\"") { indouble = 1; r = r " "; continue }
        if (c == "'" && lang != "awk") {
            if (lang == "sh") { insingle = 1; r = r " "; continue }
            # C: a character constant
            if (substr(s, i + 1, 1) == "\\") { r = r "    "; i += 3 } else { r = r "   "; i += 2 }
            continue
        }
        r = r c
    }
    if (lang == "c") indouble = 0  # (a C string never spans lines)
    return r
}
function balanced(t,    a, b, c, d) {
    a = gsub(/{/, "{", t); b = gsub(/}/, "}", t); c = gsub(/\(/, "(", t); d = gsub(/\)/, ")", t)
    return a == b && c == d
}
# The comparisons of a masked line (C and awk).
function comparisons(m, s,    i, c, c2, before, after) {
    for (i = 1; i <= length(m); i++) {
        c = substr(m, i, 1); c2 = substr(m, i, 2); before = substr(m, i - 1, 1); after = substr(m, i + 2, 1)
        if (c2 == "<=" && before != "<") { out(i, "le_to_lt", "<=", "<"); i++ }
        else if (c2 == ">=" && before != ">") { out(i, "ge_to_gt", ">=", ">"); i++ }
        else if (c2 == "==") { out(i, "eq_to_ne", "==", "!="); i++ }
        else if (c2 == "!=") { out(i, "ne_to_eq", "!=", "=="); i++ }
        else if (c == "<" && before != "<" && substr(m, i + 1, 1) != "<" && !(lang == "awk" && m ~ /getline/))
            out(i, "lt_to_le", "<", "<=")
        else if (c == ">" && before != ">" && before != "-" && substr(m, i + 1, 1) != ">" &&
                 !(lang == "awk" && substr(m, 1, i) ~ /print/))
            out(i, "gt_to_ge", ">", ">=")
        else if (c2 == "<<" || c2 == ">>" || c2 == "->") i++
    }
}
# ==== C ====
lang == "c" {
    line = $0
    # A tolerance's definition: #define NAME VALUE, static const double NAME = VALUE; (NAME: TOLERANCE or
    # ROUNDING) becomes twice VALUE.
    if (match(line, /^#define [A-Z0-9_]*(TOLERANCE|ROUNDING)[A-Z0-9_]* +/) ||
        match(line, /^static const double [A-Z0-9_]*TOLERANCE[A-Z0-9_]* = /)) {
        value = substr(line, RSTART + RLENGTH); sub(/[ \t]*\/\*.*$/, "", value); sub(/;$/, "", value)
        out(RSTART + RLENGTH, "tolerance_doubled", value, "(2 * " value ")")
        next
    }
    m = mask(line)
    if (m ~ /^[ \t]*#/) next
    # A function's name, from its first line; a function of the GPU, from there to the brace that closes
    # it (the judges' fills, samples), is left out.
    if (depth == 0 && match(m, /[A-Za-z_][A-Za-z_0-9]*\(/) && m !~ /^[ \t]/) fn = substr(m, RSTART, RLENGTH - 1)
    if (depth == 0 && m ~ /(__global__|__device__)/ && m !~ /__host__/) device = 1
    opens = gsub(/{/, "{", m); closes = gsub(/}/, "}", m)
    if (!device) {
        comparisons(m, line)
        s = m; at = 0
        while (match(s, /[^A-Za-z0-9_]FLOAT_ROUNDING[^A-Za-z0-9_]/)) {
            out(at + RSTART + 1, "tolerance_doubled", "FLOAT_ROUNDING", "(2 * FLOAT_ROUNDING)")
            at += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH - 1)
        }
        if ((i = index(m, "<= tolerance")) > 0)
            out(i + 3, "tolerance_doubled", "tolerance", "2 * tolerance")
    }
    depth += opens - closes
    if (device && depth == 0 && opens + closes > 0) device = 0
    next
}
# ==== awk ====
lang == "awk" {
    m = mask($0)
    comparisons(m, $0)
    # A whole statement on a line of its own: its braces and parentheses balanced, neither continued nor
    # continuing (a rule's pattern, a function's head, a brace, else: kept).
    t = m; sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t)
    if (t != "" && balanced(t) && t !~ /^(else|if|for|while|do|function|\/)/ && t !~ /[,&|\\]$/ &&
        prev !~ /[,&|(\\]$|^(if|for|while) *\(.*\)$|(^| )else$/)
        out(1, "line_deleted", $0, "")
    prev = t
    next
}
# ==== sh ====
lang == "sh" && heredoc != "" { if ($0 == heredoc) heredoc = ""; next }
lang == "sh" {
    was_quoted = insingle || indouble
    m = mask($0)
    if (match($0, /<<-?'?"?[A-Za-z_]+'?"?[ \t]*$/) && m ~ /<</) {
        heredoc = substr($0, RSTART, RLENGTH); gsub(/[<'" \t-]/, "", heredoc)
    }
    s = m; at = 0
    while (match(s, / -(lt|le|gt|ge|eq|ne) /)) {
        op = substr(s, RSTART + 2, 2); col = at + RSTART + 1
        if (op == "lt") out(col, "lt_to_le", "-lt", "-le")
        if (op == "le") out(col, "le_to_lt", "-le", "-lt")
        if (op == "gt") out(col, "gt_to_ge", "-gt", "-ge")
        if (op == "ge") out(col, "ge_to_gt", "-ge", "-gt")
        if (op == "eq") out(col, "eq_to_ne", "-eq", "-ne")
        if (op == "ne") out(col, "ne_to_eq", "-ne", "-eq")
        at += RSTART + 3; s = substr(s, RSTART + 4)
    }
    # = and != between the brackets of a test: [ A = B ], [ A != B ]
    s = m; at = 0
    while (match(s, /\[ [^]]* \]/)) {
        inner = substr(s, RSTART, RLENGTH); base = at + RSTART - 1
        if ((i = index(inner, " != ")) > 0) out(base + i + 1, "ne_to_eq", "!=", "=")
        else if ((i = index(inner, " = ")) > 0) out(base + i + 1, "eq_to_ne", "=", "!=")
        at = base + RLENGTH; s = substr(s, RSTART + RLENGTH)
    }
    # A whole command on a line of its own: not quoted text, its braces and parentheses balanced, neither
    # continued nor continuing, not the shell's words that shape a block, not a trap or a set.
    t = m; sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t)
    if (!was_quoted && !insingle && !indouble && t != "" && balanced(t) && prev !~ /(\\|\||&&)$/ &&
        t !~ /(\\|\||&&|(^| )(do|then|else|in))$/ &&
        t !~ /^(fi|done|esac|else|elif|then|do|if|while|for|until|case|trap|set)( |$)/)
        out(1, "line_deleted", $0, "")
    prev = t
    next
}
# ==== labs/rules.txt, labs/targets.txt ====
lang == "rules" && !/^[ \t]*(#|$)/ {
    if ($1 == "*") out(1, "line_deleted", $0, "")
    for (i = 3; i <= NF && $i ~ /^[0-9]+$/; i++) {
        # (the i-th field's column: after the first i-1 fields and the blanks after them)
        s = $0; col = 1
        for (k = 1; k < i; k++) { match(s, /^[ \t]*[^ \t]+[ \t]+/); col += RLENGTH; s = substr(s, RLENGTH + 1) }
        out(col, "number_changed", $i, $i + 1)
    }
}
# (labs/targets.txt: LAB SMALL LARGE, a target for each class of GPU: each doubled)
lang == "targets" && !/^[ \t]*(#|$)/ {
    s = $0; col = 1
    for (i = 1; i <= NF; i++) {
        match(s, /^[ \t]*/); col += RLENGTH; s = substr(s, RLENGTH + 1)
        if (i > 1 && $i ~ /^[0-9]+$/) out(col, "number_changed", $i, 2 * $i)
        col += length($i); s = substr(s, length($i) + 1)
    }
}
