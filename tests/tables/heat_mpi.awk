# tests/tables/heat_mpi.awk, for tests/tables.sh: ch3_streams_events/README.md's table "heat_mpi":
# heat_mpi's step on one rank and two, each way of exchanging the halo, per plate size. From
# figures/data/: ch3/heat/heat_mpi_RANKS_N.csv.
# Files heat_mpi_RANKS_N.csv (heat_mpi --ways-csv): way,ranks,n,median_ms,gbs, in the marker by growing N
# (a row per N, in that order; the last is the bar's plate). Times to three figures.
function t3(ms) {
    if (ms < 0.1) return sprintf("%.1f us", ms * 1e3)
    if (ms < 1) return sprintf("%.0f us", ms * 1e3)
    return sprintf("%.2f ms", ms)
}
{ n = v("n"); ms[v("ranks"), n, v("way")] = v("median_ms"); if (!(n in seen)) { seen[n]; sizes[++count] = n }
  if (v("ranks") + 0 > ranks) ranks = v("ranks") }
END {
    printf "| N | one GPU (1 rank, NCCL) | %d ranks, MPI_Sendrecv | %d ranks, NCCL | %d ranks, NCCL overlapped |" \
           " speed-up (overlapped) | halo alone | one band, no halo |\n", ranks, ranks, ranks
    print "|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= count; i++) {
        n = sizes[i]; one = ms[1, n, "NCCL send/recv"]; both = ms[ranks, n, "NCCL overlapped"]  # one GPU: as the figure
        label = i < count ? n : sprintf("%s (%.1f GB per GPU)", n, 8 * int((n - 2) / ranks) * n / 1e9)
        speedup = i < count ? x(one / both) : "**" x(one / both) "**"  # the largest plate: the bar
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", label, t3(one), t3(ms[ranks, n, "MPI_Sendrecv"]),
               t3(ms[ranks, n, "NCCL send/recv"]), t3(both), speedup, t3(ms[ranks, n, "halo exchange alone (NCCL)"]),
               t3(ms[ranks, n, "one band without halo"])
    }
}
