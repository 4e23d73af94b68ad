# tests/tables/streams.awk, for tests/tables.sh: ch3_streams_events/README.md's table "streams": the
# stream runs against the transfer bound each run measures. From figures/data/: results/streams.csv,
# streams_2.csv, streams_pageable.csv.
END {
    printf "| run, 10 arrays of 1e7 float32 | time | of the transfer bound (%s, measured in each run) |\n",
           t(rate_of("streams", "transfer_bound"))
    print "|---|---|---|"
    split("streams|streams|streams|streams_2", f, "|")
    split("streams_1|streams_10|streams_10_chained|streams_2", k, "|")
    split("1 stream|10 streams|10 streams, copies in chained|2 streams", label, "|")
    for (i = 1; i <= 4; i++) {
        ms = median_of(f[i], k[i])
        printf "| %s | %s | %.2fx |\n", label[i], t(ms), ms / rate_of(f[i], "transfer_bound")
    }
    p = "streams_pageable"; ms = median_of(p, "streams_10"); bound = rate_of(p, "transfer_bound")
    printf "| 10 streams, pageable memory | %s | %.2fx of its own bound (%s); 1 stream: %s |\n",
           t(ms), ms / bound, t(bound), t(median_of(p, "streams_1"))
}
