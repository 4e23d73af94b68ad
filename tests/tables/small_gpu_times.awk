# tests/tables/small_gpu_times.awk, for tests/tables.sh: README.md's "small_gpu_times", prose: the
# default runs over 10 s at 14 SMs and what their logs say of it. From figures/data/:
# small_gpu/gtx1650/results.tsv and the programs' logs (tab-separated); with text.awk, not lib.awk.
BEGIN { FS = "\t" }
# EMULATION/results.tsv: program, exit, size used, seconds; EMULATION/PROGRAM.log: its output.
FILENAME ~ /gtx1650\/results\.tsv$/ && $1 ~ /^ch[0-9]_/ && $1 !~ /\(2 GiB\)$/ && $4 + 0 > 10 {
    name = $1; sub(/.*\//, "", name); slow[++count] = name; secs[name] = $4
    log_of[name] = $1; gsub(/\//, "_", log_of[name]) }  # ch5_matmul/shared: ch5_matmul_shared.log
FILENAME ~ /gtx1650\/ch[0-9]_.*\.log$/ && match($0, /will take about [0-9]+ s/) {
    f = FILENAME; sub(/.*\//, "", f); sub(/\.log$/, "", f)
    if (!(f in said)) said[f] = substr($0, RSTART + 10, RLENGTH - 10) }
END {
    text = "**How long.** On the 14-SM emulation every default run takes 10 s or less"
    if (count == 0) { print wrap(text "."); exit }
    for (i = 1; i <= count; i++) {
        times[i] = "`" slow[i] "` (" secs[slow[i]] " s)"
        if (log_of[slow[i]] in said) { names[++n] = "`" slow[i] "`"; quotes[n] = "\"" said[log_of[slow[i]]] "\"" }
    }
    text = text ", except " list(times, count) "."
    if (n > 0)  # only what the committed logs show
        text = text " " list(names, n) (n > 1 ? " say" : " says") " before " (n > 1 ? "their" : "its") \
               " long part how long it will take and which option makes it shorter (" list(quotes, n) ")."
    print wrap(text)
}
