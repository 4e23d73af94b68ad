# tests/tables/peers.awk, for tests/tables.sh: ch3_streams_events/README.md's table "peers": a copy from
# GPU 0 to GPU 1 each way it can go, against the host link. From figures/data/: ch3/peers.csv.
v("from") == 0 && v("to") == 1 {
    gbs[v("way")] = v("gbs"); to_gpu = v("host_to_gpu_gbs"); to_host = v("gpu_to_host_gbs") }
END {
    link = to_gpu < to_host ? to_gpu : to_host  # the slower host link
    print "| copy of 256 MiB, GPU 0 to GPU 1 | GB/s | against the host link |"
    print "|---|---|---|"
    printf "| peer access enabled | %.1f | %.1fx the slower host link |\n",
           gbs["peer_enabled"], gbs["peer_enabled"] / link
    printf "| peer access not enabled (the driver stages through the host) | %.1f | %.0f%% of it |\n",
           gbs["peer_disabled"], 100 * gbs["peer_disabled"] / link
    printf "| by hand through pinned host memory, 32 MiB chunks | %.1f |" \
           " %.0f%% of it (%.1f GB/s from GPU 0, %.1f GB/s to GPU 1) |\n",
           gbs["through_host"], 100 * gbs["through_host"] / link, to_host, to_gpu
}
