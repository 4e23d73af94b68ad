# tests/tables/labs.awk, for tests/tables.sh: labs/README.md's table "labs": every lab's solution on the
# whole H200 and at 14 SMs, and its file as handed out. From figures/data/: labs/solutions.csv,
# labs/graded.csv, labs/graded_20261128d.csv, labs/solutions_gtx1650.csv.
# labs/solutions.csv (the whole H200) and labs/solutions_gtx1650.csv (held to 14 SMs): make labs
# SOLUTIONS=1, a row a lab; labs/graded*.csv: a row a file graded (LAB.handout, LAB.solution, ...), by
# tests/labs.t: every lab of the time in graded.csv, the labs of a later run of some in the other, whose
# verdict is then the table's.
function ms_or_untimed(value) { return value == "-" ? "not timed" : sprintf("%.3f ms", value) }
{ f = base(FILENAME) }
f ~ /^graded/ { split(v("name"), part, "."); if (part[2] != "handout") next
                if (f != "graded") later[part[1]] = 1; else if (part[1] in handout) next
                handout[part[1]] = v("verdict"); next }
{ l = v("lab"); if (f == "solutions_gtx1650") order[n++] = l
  seen[f, l] = 1; time[f, l] = v("time_ms"); pl[f, l] = v("percent_of_limit"); lim[f, l] = v("limit")
  verdict[f, l] = v("verdict"); secs[f, l] = v("seconds"); san[f, l] = v("sanitizer")
  self[f, l] = v("percent_of_solution") }
END {
    for (i = 0; i < n; i++) if (order[i] in later) laters = laters (laters == "" ? "" : ", ") "`" order[i] "`"
    d1 = run("graded"); sub(/.*, /, "", d1); d2 = run("graded_20261128d"); sub(/.*, /, "", d2)
    printf "%s: `make labs SOLUTIONS=1`, every lab, alone on the GPU. %s: the same, just after, the GPU held to" \
           " 14 SMs and 4 GiB by MPS. As handed out: `tests/labs.t` on the whole H200, %s (%s for %s, a run of" \
           " those labs alone).\n", run("solutions"), run("solutions_gtx1650"), d1, d2, laters
    print "Times by the judge's clock, medians (a file that is the solution is timed once, not against itself);" \
          " each share of its limit is what labs/targets.txt takes 80% of; \"-\": not measured there."
    print ""
    print "| lab | H200: solution | against its limit | graded in | as handed out | 14 SMs: solution |" \
          " against its limit |"
    print "|---|---|---|---|---|---|---|"
    for (i = 0; i < n; i++) {
        l = order[i]; g = "solutions_gtx1650"; h = "solutions"
        printf "| `%s` | %s | %s | %s | %s | %s, %s | %s |\n", l,
               seen[h, l] ? ms_or_untimed(time[h, l]) : "-",
               seen[h, l] && pl[h, l] != "-" ? pl[h, l] "% " lim[h, l] : "-", seen[h, l] ? secs[h, l] " s" : "-",
               (l in handout) ? handout[l] : "-",
               ms_or_untimed(time[g, l]), verdict[g, l], pl[g, l] == "-" ? "-" : pl[g, l] "%"
    }
}
