# labs/counters.awk: Nsight Compute's CSV (ncu --csv: one row a counter a kernel launch, its columns named on
# the first row, every field quoted, numbers written with thousands' commas) to "COUNTER SUM" lines, each
# counter summed over every launch but the runner's own (touch, the kernel it runs before each call).
# Lines that are not the table's (ncu's ==PROF== and ==ERROR== lines, the program's output) are skipped.
# With -v weigh=COUNTER (step 5's gpu__time_duration.sum), a share (a counter whose name holds "pct") is
# instead its mean over the launches, each weighed by its COUNTER: a kernel's share of the whole time.
function split_csv(line, out,    n, i, c, field, quoted) {  # the quoted fields of a line, in out[1..n]
    n = 0; field = ""; quoted = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field "\""; i++ }
            else if (c == "\"") quoted = 0
            else field = field c
        } else if (c == "\"") quoted = 1
        else if (c == ",") { out[++n] = field; field = "" }
        else field = field c
    }
    out[++n] = field
    return n
}
{ sub(/\r$/, "") }
!/^"/ { next }
!header {
    n = split_csv($0, name)
    for (i = 1; i <= n; i++) column[name[i]] = i
    if (("Kernel Name" in column) && ("Metric Name" in column) && ("Metric Value" in column)) header = 1
    else delete column
    next
}
{
    split_csv($0, f)
    kernel = f[column["Kernel Name"]]; metric = f[column["Metric Name"]]; value = f[column["Metric Value"]]
    if (kernel ~ /^touch(\(|$)/ || metric == "") next
    gsub(/,/, "", value)
    if (value !~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) next  # (n/a: a counter this GPU lacks)
    if (!(metric in sum)) order[++count] = metric
    sum[metric] += value
    launch = ("ID" in column) ? f[column["ID"]] : NR
    if (metric == weigh) weight[launch] = value
    else if (weigh != "" && metric ~ /pct/) { share[launch, metric] = value; shared[launch, metric] = 1 }
}
END {
    for (i = 1; i <= count; i++) {
        s = sum[order[i]]
        if (weigh != "" && order[i] ~ /pct/) {  # (the mean, each launch weighed by its time)
            w = t = 0
            for (key in shared) {
                split(key, part, SUBSEP)
                if (part[2] != order[i] || !(part[1] in weight)) continue
                t += weight[part[1]] * share[key]; w += weight[part[1]]
            }
            if (w == 0) continue
            s = t / w
        }
        printf "%s %s\n", order[i], (s == int(s) ? sprintf("%.0f", s) : sprintf("%.3g", s))
    }
}
