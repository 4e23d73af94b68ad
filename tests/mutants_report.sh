#!/bin/sh
# tests/mutants_report.sh RESULTS ACCEPTED SECONDS GPU SITES [DATE [JOBS]]: tests/mutants.sh's report, in Mull's words
# (FILE:LINE:COLUMN: warning: Survived: Replaced A with B [OPERATOR], the line, a caret under the place),
# from its workers' RESULTS (a mutant a line: ID FILE LINE COLUMN OPERATOR CLASS COVER FROM TO EXTRA
# STATUS SECONDS) and the accepted survivors (ACCEPTED: "ID FILE:LINE REASON" lines). The survivors first,
# then the accepted ones with their reasons, the gpu ones (not run without a GPU), the sites no longer
# there, the accepted lines whose mutant was killed (stale), and the run's counts, "# ==== The run" on.
# Exit 1 when a survivor is not accepted or a site was not planted.
# DATE, when the run began (now, if not given): the report can be made again from a run's RESULTS.
set -u
results=$1 accepted=$2 seconds=$3 gpu=$4 sites=$5 date=${6:-$(date -u '+%Y-%m-%d %H:%M UTC')} jobs=${7:-1}
grep -v '^[[:space:]]*\(#\|$\)' "$accepted" 2>/dev/null | awk '{ print $1 }' >"$results.accepted_ids"
# what(): the change in words, as Mull says it; where(): FILE:LINE:COLUMN.
awk -F'\t' -v ids="$results.accepted_ids" -v acc="$accepted" -v seconds="$seconds" -v gpu="$gpu" -v sites="$sites" \
    -v date="$date" -v jobs="$jobs" '
    BEGIN {
        while ((getline l < ids) > 0) ok[l]
        while ((getline l < acc) > 0)
            if (l !~ /^[ \t]*(#|$)/) { split(l, w, " "); r = l; sub(/^[^ ]+ +[^ ]+ +/, "", r); why[w[1]] = r }
    }
    function text_of(file, n,    l, k) {
        if (!(file in read)) { read[file]; k = 0; while ((getline l < file) > 0) lines[file, ++k] = l; close(file) }
        return lines[file, n]
    }
    function what(   ) {
        if ($5 == "line_deleted") return "Removed the line [line_deleted]"
        return "Replaced " $8 " with " $9 " [" $5 "]"
    }
    function shown(   t, caret) {  # the line, and a caret under the change
        t = text_of($2, $3); gsub(/\t/, " ", t)
        caret = sprintf("%" ($4 > 1 ? $4 - 1 : 0) "s^", "")
        return "  " t "\n  " caret
    }
    {
        n++; status[$11]++; file[$2]; planted[$2]++
        place = $2 ":" $3 ":" $4
        if ($11 == "killed" || $11 == "timed out") killed[$2]++
        if ($11 == "survived" && ($1 in ok)) { acc_n++; accepted[$2]++
            acc_list = acc_list $1 " " place " " what() ": " why[$1] "\n" }
        else if ($11 == "survived") { bad++; survived[$2]++
            bad_list = bad_list place ": warning: Survived: " what() " (id " $1 ")\n" shown() "\n" }
        if ($11 == "gpu") { gpus[$2]++; gpu_list = gpu_list place ": " what() " (id " $1 "; tests " $7 ")\n" }
        if ($11 == "not planted") { gone++; gone_list = gone_list place ": " what() " (id " $1 "): not there\n" }
        if (($11 == "killed" || $11 == "timed out") && ($1 in ok)) stale_list = stale_list $1 " " place "\n"
    }
    END {
        printf "# ==== Survivors (%d): no test noticed the change, and tests/mutants_accepted.txt does not accept it\n",
            bad
        printf "%s", bad_list
        printf "# ==== Accepted survivors (%d), with the reason tests/mutants_accepted.txt gives\n%s", acc_n, acc_list
        printf "# ==== gpu (%d): not killed here, and only a GPU runs the rest of their tests (none here)\n",
            status["gpu"]
        if (gpu != "yes") printf "%s", gpu_list
        printf "# ==== Not planted (%d): the site is no longer in the file (a stale MUTANTS_SITES)\n%s", gone, gone_list
        if (stale_list != "")
            printf "# ==== Accepted, but killed now: their lines in tests/mutants_accepted.txt can go\n%s", stale_list
        cmd = "uname -srm"; cmd | getline machine; close(cmd)
        cmd = "getconf _NPROCESSORS_ONLN"; cmd | getline cpus; close(cmd)
        cmd = "nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1"
        cmd | getline card; close(cmd)
        run = n - status["gpu"] - gone
        k = status["killed"] + status["timed out"]
        print "# ==== The run (tests/mutants.sh, make mutants)"
        if ((getline load < "/proc/loadavg") > 0) { split(load, lv, " "); load = ", load " lv[1] " " lv[2] " " lv[3] }
        printf "date: %s\nmachine: %s, %d CPUs%s, %s\n", date, machine, cpus, load, card != "" ? card : "no GPU"
        printf "sites: %d; planted: %d (run here: %d, gpu: %d, not planted: %d)\n", sites, n, run, status["gpu"], gone
        printf "killed: %d (timed out: %d); survived: %d (accepted: %d, not accepted: %d)\n", k,
            status["timed out"] + 0, status["survived"] + 0, acc_n, bad
        printf "mutation score: %.1f%% of the mutants run (killed / run)\n", run ? 100 * k / run : 0
        printf "seconds: %d (%d %s side by side, MUTANTS_JOBS)\n", seconds, jobs, (jobs > 1 ? "copies" : "copy")
        printf "%-36s %7s %7s %7s %7s %7s\n", "file", "planted", "killed", "accepted", "survived", "gpu"
        for (f in file) order[++m] = f
        for (i = 2; i <= m; i++)  # (in order of name: an insertion sort, any awk)
            for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
                t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
            }
        for (i = 1; i <= m; i++) { f = order[i]
            printf "%-36s %7d %7d %7d %7d %7d\n", f, planted[f], killed[f], accepted[f], survived[f], gpus[f] }
        exit (bad > 0 || gone > 0)
    }' "$results"
status=$?
rm -f "$results.accepted_ids"
exit $status
