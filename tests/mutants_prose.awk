# tests/mutants_prose.awk: the sites of tests/mutants.sh in a README's prose, one a row of the ledger
# (figures/data/sources.tsv) that traces a number of that README:
#     awk -F'\t' -v readme=README -f tests/mutants_prose.awk figures/data/sources.tsv README
# prints LINE <tab> COLUMN <tab> digit_changed <tab> DIGIT <tab> NEW <tab> ROW:K, DIGIT the number's first
# digit that is not 0, at COLUMN of the README's LINE, and K its place in the number as the ledger's row
# ROW writes it: the mutant changes both alike. The digit goes up by one (9 to 10), or down by one where
# the row says "below" (a source that opens with < or <=), so that the sentence says more than is true.
# A row "todo" (not traced yet) has none, nor a number without a digit (two minutes), nor a context that
# the README's text does not hold exactly once.
FNR == NR {
    if ($0 !~ /^#/ && $1 == readme && $4 != "todo" && match($2, /[1-9]/)) {
        rows++; row[rows] = FNR; number[rows] = $2; context[rows] = $3; k[rows] = RSTART
        down[rows] = $5 ~ /^<=? /
    }
    next
}
# The README as one string, every run of blanks and line breaks one space, and where each of its
# characters came from.
{
    s = $0 " "
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\t") c = " "
        if (c == " " && last == " ") continue
        text = text c; n++; at_line[n] = FNR; at_col[n] = i; last = c
    }
}
END {
    for (r = 1; r <= rows; r++) {
        j = index(text, context[r])
        if (j == 0 || index(substr(text, j + 1), context[r]) > 0) continue
        p = index(context[r], number[r])
        if (p == 0) continue
        place = j + p - 1 + k[r] - 1
        d = substr(number[r], k[r], 1) + 0
        new = down[r] ? d - 1 : (d == 9 ? 10 : d + 1)
        print at_line[place] "\t" at_col[place] "\tdigit_changed\t" d "\t" new "\t" row[r] ":" k[r]
    }
}
