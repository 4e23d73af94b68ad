# tests/tables/scan.awk, for tests/tables.sh: ch4_atomics_mutex/README.md's table "scan": the three-
# kernel scan, the single pass and CUB, per size, against a device copy. From figures/data/:
# ch4/scan.csv.
{ g[v("variant"), v("n")] = v("gbs"); if (v("n") + 0 > max) max = v("n") }
END {
    print "| n | three kernels | single pass | CUB | single pass / CUB | device copy |"
    print "|---|---|---|---|---|---|"
    split("1000000 10000000 100000000 1000000000", sizes, " "); sizes[5] = max
    for (i = 1; i <= 5; i++) {
        n = sizes[i]; if (!(("cub", n) in g) || (i == 5 && n == sizes[4])) continue
        label = n == 2147483659 ? "2^31 + 11 (64-bit sums)" : e(n)
        printf "| %s | %.0f | %.0f | %.0f | %.0f%% | %.0f |\n", label, g["three_kernels", n], g["single_pass", n],
               g["cub", n], 100 * g["single_pass", n] / g["cub", n], g["copy", n]
    }
}
