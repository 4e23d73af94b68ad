# tests/tables/graphs.awk, for tests/tables.sh: ch3_streams_events/README.md's table "graphs": a step
# queued stream by stream against the same step replayed as a CUDA graph, per array size. From
# figures/data/: ch3/graphs.csv.
{ ms[v("way"), v("n")] = v("median_ms"); q[v("way"), v("n")] = v("queue_us")
  if (v("way") == "graph") sizes[++count] = v("n") }
END {
    print "| elements per array | stream by stream | graph | speed-up | host time to queue: streams | graph |"
    print "|---|---|---|---|---|---|"
    for (i = 1; i <= count; i++) {
        n = sizes[i]
        printf "| %s%s | %s | %s | %s | %.0f us | %.0f us |\n", e(n), n == 1e7 ? " (the article's)" : "",
               t(ms["streams", n]), t(ms["graph", n]), x(ms["streams", n] / ms["graph", n]),
               q["streams", n], q["graph", n]
    }
}
