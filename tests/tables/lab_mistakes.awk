# tests/tables/lab_mistakes.awk, for tests/tables.sh: labs/README.md's table "lab_mistakes": each
# planted mistake and what labs/grade said of it. From figures/data/: labs/graded.csv.
{ split(v("name"), part, "."); if (part[2] == "handout" || part[2] == "solution") next
  k = ++m; lab[k] = part[1]; name[k] = part[2]; want[k] = v("want"); got[k] = v("verdict") }
END {
    printf "%s: each planted mistake graded by `labs/grade`, the slow ones timed against the solution, the\n",
           run("graded")
    print "others without timing:"
    print ""
    print "| lab | planted mistake | the report that must catch it | what `labs/grade` said |"
    print "|---|---|---|---|"
    for (i = 1; i <= m; i++) {
        report = want[i] == "wrong" ? "the result check" : want[i] == "slow" ? "the timing" : want[i]
        printf "| `%s` | `%s` | %s | %s |\n", lab[i], name[i], report, got[i]
    }
}
