# tests/tables/multi_gpu.awk, for tests/tables.sh: ch3_streams_events/README.md's table "multi_gpu": one
# GPU against every GPU with NCCL and through the host, per size. From figures/data/: ch3/multi_gpu.csv.
v("way") == "one_gpu" { one[v("n")] = v("median_ms"); sizes[++count] = v("n") }
v("way") == "nccl" { nccl[v("n")] = v("median_ms"); gpus = v("gpus") }
v("way") == "through_host" { host[v("n")] = v("median_ms") }
END {
    printf "| normalise, end to end | one GPU | %s GPUs, NCCL | speed-up | %s GPUs, through the host |\n", gpus, gpus
    print "|---|---|---|---|---|"
    for (i = 1; i <= count; i++) {
        n = sizes[i]
        if (n < 1e7) continue  # the table starts at the article size; the figure has the rest
        label = n == 1e7 ? "1e7 elements (the article's)" : e(n)
        if (n > 1e9) label = sprintf("%.0fe9 (%.0f GB, %.0f GB per GPU)", n / 1e9, n * 4e-9, n * 4e-9 / gpus)
        printf "| %s | %s | %s | %.2fx | %s |\n", label, t(one[n]), t(nccl[n]), one[n] / nccl[n], t(host[n])
    }
}
