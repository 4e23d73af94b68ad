# tests/tables/histogram.awk, for tests/tables.sh: ch4_atomics_mutex/README.md's table "histogram": the
# histogram versions on 5.6 MB and 1 GB of text. From figures/data/: results/histogram*.csv.
END {
    print "| version | 5.6 MB text | | 1 GB text | |"
    print "|---|---|---|---|---|"
    split("histogram|histogram|histogram|histogram|histogram_wide|histogram_wide", f, "|")
    split("cpu_naive|cpu_best|gpu_global|gpu_shared|wide|cub", k, "|")
    split("CPU naive loop|CPU best loop|GPU global atomics (4.3)|GPU shared memory (4.4)|" \
          "going further, 256 bins|CUB `HistogramEven`", label, "|")
    for (i = 1; i <= 6; i++)
        printf "| %s | %s | %.1f GB/s | %s | %.1f GB/s |\n", label[i], t(median_of(f[i], k[i])), rate_of(f[i], k[i]),
               t(median_of(f[i] "_1e9", k[i])), rate_of(f[i] "_1e9", k[i])
}
