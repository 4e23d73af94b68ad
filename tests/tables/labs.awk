# tests/tables/labs.awk, for tests/tables.sh: labs/README.md's table "labs": every lab's solution on the
# whole H200 and at 14 SMs, and its file as handed out. From figures/data/: labs/solutions.csv,
# labs/graded.csv, labs/solutions_gtx1650.csv.
# labs/solutions.csv (the whole H200) and labs/solutions_gtx1650.csv (held to 14 SMs): make labs
# SOLUTIONS=1, a row a lab; labs/graded.csv: a row a file graded (LAB.handout, LAB.solution, ...).
function ms_or_untimed(value) { return value == "-" ? "not timed" : sprintf("%.3f ms", value) }
{ f = base(FILENAME) }
f == "graded" { split(v("name"), part, "."); if (part[2] == "handout") handout[part[1]] = v("verdict"); next }
{ l = v("lab"); if (f == "solutions_gtx1650") order[n++] = l
  seen[f, l] = 1; time[f, l] = v("time_ms"); pl[f, l] = v("percent_of_limit"); lim[f, l] = v("limit")
  verdict[f, l] = v("verdict"); secs[f, l] = v("seconds"); san[f, l] = v("sanitizer")
  self[f, l] = v("percent_of_solution") }
END {
    printf "%s: `make labs SOLUTIONS=1`, every lab of the time (not `ch3_debug_stream`, `ch4_debug_init`," \
           " `ch3_debug_async`, `ch2_cooperative_groups`, `ch2_dynamic_shared` nor `ch2_debug_divergent`, labs" \
           " added since). %s: the same, the GPU held to 14 SMs\n", run("solutions"), run("solutions_gtx1650")
    print "and 4 GiB by MPS. As handed out: `tests/labs.t` on the whole H200. Times by the judge's clock, medians; each"
    print "solution is timed against itself (its share of its own speed shows the noise); \"-\": not measured there."
    print ""
    print "| lab | H200: solution | itself | against its limit | graded in | as handed out |" \
          " 14 SMs: solution | itself |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 0; i < n; i++) {
        l = order[i]; g = "solutions_gtx1650"; h = "solutions"
        printf "| `%s` | %s | %s | %s | %s | %s | %s, %s | %s |\n", l,
               seen[h, l] ? ms_or_untimed(time[h, l]) : "-", seen[h, l] && self[h, l] != "-" ? self[h, l] "%" : "-",
               seen[h, l] && pl[h, l] != "-" ? pl[h, l] "% " lim[h, l] : "-", seen[h, l] ? secs[h, l] " s" : "-",
               (l in handout) ? handout[l] : "-",
               ms_or_untimed(time[g, l]), verdict[g, l], self[g, l] == "-" ? "-" : self[g, l] "%"
    }
}
