# tests/tables/reduce2d.awk, for tests/tables.sh: ch2_reduction/README.md's table "reduce2d": the 2D
# reduction's launches: time, GB/s and share of CUB. From figures/data/: results/reduce2d.csv.
END {
    f = "reduce2d"
    print "| launch, 20000 x 20000 float32 | time | GB/s | of CUB |"
    print "|---|---|---|---|"
    rows_time_rate_share(f, "article|threads_32x8|one_wave|cub",
        "the article's: 16 x 16 threads, 64 x 64 blocks|" \
        "32 x 8 threads, 64 x 64 blocks|" \
        "32 x 8 threads, one wave of blocks|" \
        "`cub::DeviceReduce::Sum` on the raveled array")
}
