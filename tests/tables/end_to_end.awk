# tests/tables/end_to_end.awk, for tests/tables.sh: ch5_matmul/README.md's table "end_to_end": the
# page's kernel end to end and alone, and the CPU loops, beside the page's own times. From
# figures/data/: results/naive.csv.
END {
    f = "naive"; gpu = run(f); sub(/,.*/, "", gpu); e2e = median_of(f, "naive_end_to_end")
    printf "| n = 2500, int64 | here (%s; CPU: one core) | the page (GTX 970) |\n", gpu
    print "|---|---|---|"
    printf "| the page's kernel, end to end (allocate, copies in and out, kernel) | %s | 0.63 s |\n", t(e2e)
    printf "| the page's kernel alone | %s | |\n", t(median_of(f, "naive"))
    printf "| sum in a register, kernel alone | %s | |\n", t(median_of(f, "register_sum"))
    printf "| CPU, i-k-j loop in C | %.1f s (%.0fx the GPU end to end) | C++ with STL vectors: about 9 s (14x) |\n",
           rate_of(f, "cpu_ikj") / 1e3, rate_of(f, "cpu_ikj") / e2e
    printf "| CPU, i-j-k loop in C (the definition's order) | %.1f s | |\n", rate_of(f, "cpu_ijk") / 1e3
    print "| NumPy's int64 `A @ B` | not run (no Python in this course) | 27.47 s (44x) |"
}
