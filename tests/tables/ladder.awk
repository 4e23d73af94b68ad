# tests/tables/ladder.awk, for tests/tables.sh: ch2_reduction/README.md's table "ladder": the reduction
# ladder (naive, better, warp_shuffle, CUB) per N, against CUB and a copy. From figures/data/:
# ch2/ladder.csv.
{ g[v("variant"), v("n")] = v("gbs") }
END {
    print "| N | naive | better | warp_shuffle | CUB | better / CUB | warp_shuffle / CUB | CUB / copy |"
    print "|---|---|---|---|---|---|---|---|"
    split("1000000 10000000 100000000 1000000000", sizes, " ")
    for (i = 1; i <= 4; i++) {
        n = sizes[i]; if (!(("cub", n) in g)) continue
        printf "| %s | %.0f | %.0f | %.0f | %.0f | %.1f%% | %.1f%% | %.0f%% |\n", e(n), g["naive", n], g["better", n],
               g["warp_shuffle", n], g["cub", n], 100 * g["better", n] / g["cub", n],
               100 * g["warp_shuffle", n] / g["cub", n], 100 * g["cub", n] / g["copy", n]
    }
}
