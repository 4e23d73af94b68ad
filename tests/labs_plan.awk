# tests/labs_plan.awk, for tests/labs.t: labs/README.md's table of labs and its plan of sessions, read
# from the README (awk -v labs="$LABS" -v every="LABS OVER EVERY GPU" -f tests/labs_plan.awk README).
# Prints a line for each promise broken, nothing when all hold:
#   - the table lists the labs of LABS, in that order, each with a time: "N min", "N h", "N to M min" or
#     "N to M h" (a range counts at its upper end);
#   - after the first steps, the chapter in a lab's name never goes back, and no chapter opens with its
#     debugging lab (one whose name holds _debug_): it comes after the labs whose lesson it tests;
#   - each session of the plan ("the five first steps" are LABS' first five) names labs of the table, in
#     the table's order, and its time is the sum of theirs, within a session's three hours;
#   - each plan times a kernel with events (ch3_events), replays a graph (ch3_graph) and holds a lab
#     judged over every GPU (labs/rules.txt "gpus every", given in every).
BEGIN {
    first_steps = 5        # the first steps: LABS' first five
    session_minutes = 180  # a session of the plan: three hours
    n = split(labs, lab, " ")
    for (i = 1; i <= n; i++) place[lab[i]] = i
    split(every, e, " "); for (i in e) over_every[e[i]] = 1
}
# A time as the table writes it, in minutes (a range at its upper end); -1 when it is none of those.
function minutes(t,   w, k) {
    k = split(t, w, " ")
    if (k == 2 && w[1] ~ /^[0-9.]+$/ && w[2] ~ /^(min|h)$/) return w[1] * (w[2] == "h" ? 60 : 1)
    if (k == 4 && w[1] ~ /^[0-9.]+$/ && w[2] == "to" && w[3] ~ /^[0-9.]+$/ && w[4] ~ /^(min|h)$/)
        return w[3] * (w[4] == "h" ? 60 : 1)
    return -1
}
function cells(line, c,   k, i) {  # a table row's cells, trimmed, into c; their count
    k = split(line, c, "|")
    for (i = 1; i <= k; i++) { gsub(/^ +| +$/, "", c[i]) }
    return k
}
/^<!-- labs: / { table = 1; next }
/^<!-- end labs -->$/ { table = 0; next }
/^<!-- plan: / { plan = 1; next }
/^<!-- end plan -->$/ { plan = 0; next }
table && /^\| `/ {
    k = cells($0, c); name = c[2]; gsub(/`/, "", name)
    listed[++nl] = name; time[name] = minutes(c[k - 1])
    if (time[name] < 0) print "the table's time of " name " is \"" c[k - 1] "\": not N min, N h or N to M h"
}
plan && /^\| [a-z]/ && !/^\| plan \|/ {
    k = cells($0, c); who = c[2] ", session " c[3]; sum = 0; last = 0
    if (!(c[2] in plans)) np++
    plans[c[2]] = 1; names = c[4]
    if (sub(/^the five first steps, /, "", names))
        for (i = 1; i <= first_steps; i++) { sum += time[lab[i]]; last = i; held[c[2], lab[i]] = 1 }
    m = split(names, w, ", ")
    for (i = 1; i <= m; i++) {
        name = w[i]; gsub(/`/, "", name)
        if (!(name in time)) { print who ": " name " is no lab of the table"; continue }
        if (place[name] <= last) print who ": " name " is out of the table's order"
        last = place[name]; sum += time[name]; held[c[2], name] = 1
    }
    if (minutes(c[5]) != sum) print who ": its time says \"" c[5] "\", its labs' times add up to " sum " min"
    if (sum > session_minutes) print who ": " sum " min, more than a session's " session_minutes
}
END {
    if (nl != n) print "the table lists " nl " labs, LABS " n
    for (i = 1; i <= nl && i <= n; i++)
        if (listed[i] != lab[i]) { print "the table's lab " i " is " listed[i] ", LABS' " lab[i]; break }
    chapter = 0
    for (i = first_steps + 1; i <= n; i++) {
        ch = substr(lab[i], 3, 1) + 0
        if (ch < chapter) print lab[i] " comes after chapter " chapter "'s labs"
        if (ch != chapter && lab[i] ~ /_debug_/) print lab[i] " opens chapter " ch ": a debugging lab comes after"
        chapter = ch
    }
    for (p in plans) {
        if (!held[p, "ch3_events"]) print "the plan of " p " has no ch3_events"
        if (!held[p, "ch3_graph"]) print "the plan of " p " has no ch3_graph"
        multi = 0; for (name in over_every) if (held[p, name]) multi = 1
        if (!multi) print "the plan of " p " has no lab over every GPU"
    }
    if (!np) print "no plan of sessions (<!-- plan: ... --> to <!-- end plan -->)"
}
