# findings.awk: compute-sanitizer's report in one line per distinct finding, for labs/grade:
#   Invalid __global__ read of size 4 bytes in saxpy (ch1_map.cu:13) [x31]
#   shared-memory race in transpose (write at ch1_transpose.cu:15 and read at ch1_transpose.cu:21) [x5]
# A finding starts at a line "========= TEXT" (not the tool's banner or summaries, nor its word that the
# program ended badly: labs/grade judges that by the judge's lines, as a run that did not finish); its kernel and
# source lines come from the lines "at KERNEL(...)+0x.. in FILE:LINE" under it. here= is stripped from
# the file names.
function flush() {
    if (what != "") {
        key = what " in " kernel " (" where ")"
        if (!(key in seen))
            order[n++] = key
        seen[key]++
    }
    what = ""
}
# The tool's lines that are no finding: its banner, its summaries, its word that the program ended badly.
BEGIN {
    not_a_finding = "^========= (ERROR SUMMARY|([A-Z]+ )?SUMMARY:|COMPUTE-SANITIZER|Program hit|Target application" \
                    "|Saved host backtrace|Maximum number of hazards|Error: process didn't terminate successfully)"
}
/^========= [^ ]/ && $0 !~ not_a_finding {
    flush()
    what = $0
    sub(/^========= /, "", what)
    sub(/^Error: /, "", what)
    sub(/ at .*/, "", what)
    sub(/^Race reported between .*/, "shared-memory race", what)
    kernel = "?"
    where = ""
}
what != "" && / at .* in .*:[0-9]+/ {
    k = $0; sub(/.* at /, "", k); sub(/\(.*/, "", k); sub(/\+0x.*/, "", k)
    if (kernel == "?")
        kernel = k
    w = $0; sub(/.* in /, "", w); sub(/ .*/, "", w); gsub(here, "", w)
    if ($0 ~ /(Write|Read) access at/) {  # racecheck names the two accesses
        a = $0; sub(/ access at.*/, "", a); sub(/.* /, "", a)
        w = tolower(a) " at " w
    }
    if (index(where, w) == 0)
        where = where (where == "" ? "" : " and ") w
}
END {
    flush()
    for (i = 0; i < n; i++)
        printf "%s%s\n", order[i], (seen[order[i]] > 1 ? " [x" seen[order[i]] "]" : "")
}
