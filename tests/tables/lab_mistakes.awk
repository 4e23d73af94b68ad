# tests/tables/lab_mistakes.awk, for tests/tables.sh: labs/README.md's table "lab_mistakes": each
# planted mistake and what labs/grade said of it. From figures/data/: labs/graded.csv, then a later run's
# labs/graded_20261128d.csv, whose row for a mistake replaces the first's (a mistake new there is added).
{ f = base(FILENAME); split(v("name"), part, "."); if (part[2] == "handout" || part[2] == "solution") next
  if (!(v("name") in at)) { at[v("name")] = ++m; lab[m] = part[1]; name[m] = part[2] }
  k = at[v("name")]; want[k] = v("want"); got[k] = v("verdict"); from[k] = f }
END {
    d1 = run("graded"); d2 = run("graded_20261128d"); sub(/.*, /, "", d2)
    printf "%s (the rows marked * %s, a run of seven labs alone): each planted mistake graded by `labs/grade`,\n",
           d1, d2
    print "the slow ones timed against the solution, the others without timing:"
    print ""
    print "| lab | planted mistake | the report that must catch it | what `labs/grade` said |"
    print "|---|---|---|---|"
    for (i = 1; i <= m; i++) {
        report = want[i] == "wrong" ? "the result check" : want[i] == "slow" ? "the timing" : want[i]
        printf "| `%s` | `%s`%s | %s | %s |\n", lab[i], name[i], from[i] == "graded" ? "" : " *", report, got[i]
    }
}
