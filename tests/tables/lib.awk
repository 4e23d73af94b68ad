# tests/tables/lib.awk: what every recipe over CSV files shares (tests/tables.sh reads it before the
# recipe). Each file's first line names its run ("# device: NAME, compute capability ..., DATE TIME UTC"):
# run(FILE) gives it without the time. Its second line names the columns: v("name") is the current row's
# field of that name. Lines starting with # and the header row reach no recipe. A results file (the
# --csv of a program, common/stats.h, whose first column is "key") is also read into M (median ms), R
# (its rate: GB/s, GFLOP/s or a value) and P (percent of its limit), by the file's name and the row's
# key: the name the program gives the row, which stays when its printed label is reworded.
# t(ms): a time as the READMEs write it (microseconds below 1 ms, else ms or s); x(r): a ratio, 1.19x
# or 12.0x; e(n): a power of ten as 1e9; pct(r): a share as a whole percent.
function t(ms) {
    if (ms < 1) return sprintf("%.0f us", ms * 1e3)
    if (ms < 100) return sprintf("%.2f ms", ms)
    if (ms < 1e3) return sprintf("%.1f ms", ms)
    return sprintf("%.2f s", ms / 1e3)
}
function x(r) { return r < 2 ? sprintf("%.2fx", r) : sprintf("%.1fx", r) }
function e(n,   p) {  # p: the power of ten nearest to n
    if (n < 1e3) return n
    p = int(log(n) / log(10) + 0.5)
    return n == 10 ^ p ? sprintf("1e%d", p) : n
}
function run(f) { return dev[base(f)] }
function base(f) { sub(/.*\//, "", f); sub(/\.csv$/, "", f); return f }
function pct(r) { return sprintf("%.0f%%", 100 * r) }
BEGIN { FS = "," }
FNR == 1 {
    path[base(FILENAME)] = FILENAME
    line = $0; sub(/^# (device: )?/, "", line); sub(/ [0-9:]+ UTC.*$/, "", line)
    dev[base(FILENAME)] = line
}
# The header row names the columns: v("name") is the current row's field of that name; a name the
# header lacks (a column renamed where the file is written) stops the rendering, naming the file.
FNR == 2 { for (i = 1; i <= NF; i++) H[base(FILENAME), $i] = i }
function v(name) {
    if (!((base(FILENAME), name) in H)) {
        printf "tables.sh: %s has no column \"%s\"\n", FILENAME, name > "/dev/stderr"
        exit 1
    }
    return $(H[base(FILENAME), name])
}
/^#/ || FNR == 2 { next }
# A results file (stats.h: its header opens with "key"): M = median ms, R = rate (GB/s, GFLOP/s or a
# value), P = percent of its limit, each row under its key. A key twice in one file would make a lookup
# ambiguous: it stops the rendering.
(base(FILENAME), "key") in H {
    if ((base(FILENAME), v("key")) in M) {
        printf "tables.sh: %s has two rows keyed \"%s\"\n", FILENAME, v("key") > "/dev/stderr"
        exit 1
    }
    M[base(FILENAME), v("key")] = v("median_ms"); R[base(FILENAME), v("key")] = v("rate")
    P[base(FILENAME), v("key")] = v("percent") }
# The recipes read them through median_of(FILE, KEY), rate_of and percent_of: a row that is not there (a
# key renamed in a program, a file from an older run) stops the rendering, naming the file and the key.
function row_of(A, f, key) {
    if (!((f, key) in A)) {
        printf "tables.sh: %s has no row keyed \"%s\" (a key renamed in its program?)\n",
               (f in path ? path[f] : f ".csv: not read"), key > "/dev/stderr"
        exit 1
    }
    return A[f, key]
}
function median_of(f, key) { return row_of(M, f, key) }
function rate_of(f, key) { return row_of(R, f, key) }
function percent_of(f, key) { return row_of(P, f, key) }
# rows_time_rate_share(f, "key|key", "label|label"): a table's rows "| label | time | GB/s | share |", one a
# key of results file f, the share its percent of the program's limit (empty where it has none).
function rows_time_rate_share(f, keys, labels,   k, label, n, i) {
    n = split(keys, k, "|")
    split(labels, label, "|")
    for (i = 1; i <= n; i++)
        printf "| %s | %s | %.0f | %s |\n", label[i], t(median_of(f, k[i])), rate_of(f, k[i]),
               percent_of(f, k[i]) == "" ? "" : sprintf("%.0f%%", percent_of(f, k[i]))
}
