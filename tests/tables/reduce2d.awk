# tests/tables/reduce2d.awk, for tests/tables.sh: ch2_reduction/README.md's table "reduce2d": the 2D
# reduction's launches: time, GB/s and share of CUB. From figures/data/: results/reduce2d.csv.
END {
    f = "reduce2d"
    print "| launch, 20000 x 20000 float32 | time | GB/s | of CUB |"
    print "|---|---|---|---|"
    split("article|threads_32x8|one_wave|cub", k, "|")
    split("the article's: 16 x 16 threads, 64 x 64 blocks|32 x 8 threads, 64 x 64 blocks|32 x 8 threads, one wave of blocks|`cub::DeviceReduce::Sum` on the raveled array", label, "|")
    for (i = 1; i <= 4; i++)
        printf "| %s | %s | %.0f | %s |\n", label[i], t(median_of(f, k[i])), rate_of(f, k[i]), percent_of(f, k[i]) == "" ? "" : sprintf("%.0f%%", percent_of(f, k[i]))
}
