# tests/tables/vector_add.awk, for tests/tables.sh: ch3_streams_events/README.md's table "vector_add": c
# = a + b on one stream and five, against the transfer bound. From figures/data/:
# results/vector_add_streams.csv.
END {
    f = "vector_add_streams"
    print "| c = a + b, 2e7 float64 | 1 stream | 5 streams | transfer bound |"
    print "|---|---|---|---|"
    split("pinned pageable", kind, " ")
    for (i = 1; i <= 2; i++) {
        b = rate_of(f, "transfer_bound_" kind[i])
        one = median_of(f, "streams_1_" kind[i]); five = median_of(f, "streams_5_" kind[i])
        printf "| %s | %s (%.2fx the bound) | %s (%.2fx) | %s |\n", kind[i], t(one), one / b, t(five), five / b, t(b)
    }
}
