# tests/tables/lab_limits.awk, for tests/tables.sh: labs/README.md's table "lab_limits": what binds each
# timed lab's solution (issue 53: a solution at 90% of its limit, or the reason it cannot be). From
# figures/data/labs/solution_limits.csv (tests/solution_limits.sh: LAB_PROFILE=1, Nsight Compute at the
# timed size): a row a timed lab, its share of the limit the judge reports, and the shares of their peaks
# that DRAM, L2, L1 and shared memory and the SMs' busiest pipe reached, and the warps resident, each the
# mean over its kernels weighed by their time ("-": ncu gave none, the lab's work is copies or a graph).
# The last column names the unit nearest its peak where one reached 70%: what binds; else "none near". A
# solution under the course's goal (goal, below: labs/README.md quotes it) is marked *.
function share(s) { return s == "-" ? "-" : s "%" }
BEGIN { goal = 90; n = 0 }  # (n a number from the start: "" would index the first row)
{ lab[n] = v("lab"); pl[n] = v("percent_of_limit"); lim[n] = v("limit")
  u[n, 1] = v("dram"); u[n, 2] = v("l2"); u[n, 3] = v("l1"); u[n, 4] = v("sm"); w[n++] = v("warps") }
END {
    split("DRAM,L2,L1 and shared memory,the busiest pipe", name, ",")
    printf "%s: `tests/solution_limits.sh`, every timed lab's solution, Nsight Compute at the timed size;" \
           " *: under %d%% of its limit.\n", run("solution_limits"), goal
    print ""
    print "| lab | the solution | DRAM | L2 | L1, shared | busiest pipe | warps resident | nearest its peak |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 0; i < n; i++) {
        best = 0
        for (k = 1; k <= 4; k++) if (u[i, k] != "-" && (best == 0 || u[i, k] + 0 > u[i, best] + 0)) best = k
        near = best && u[i, best] + 0 >= 70 ? name[best] " (" u[i, best] "%)" : (best ? "none near" : "-")
        printf "| `%s`%s | %s%% %s | %s | %s | %s | %s | %s | %s |\n", lab[i], pl[i] + 0 < goal ? " *" : "",
               pl[i], lim[i], share(u[i, 1]), share(u[i, 2]), share(u[i, 3]), share(u[i, 4]), share(w[i]), near
    }
}
