# tests/tables/heat_edges.awk, for tests/tables.sh: ch3_streams_events/README.md's table "heat_edges":
# what the overlapped step costs over the step without overlap, before and after the edge strips. From
# figures/data/: ch3/heat/edge_strips/*.csv.
# heat_mpi -np 1 before (one_row_1_N.csv) and after (strips_1_N.csv) the edge strips: what the
# overlapped step costs over the same program's step without overlap, with nothing to exchange.
# A row per N, in the marker's order.
{ kind = FILENAME ~ /one_row_/ ? "row" : "strips"; n = v("n"); ms[kind, n, v("way")] = v("median_ms")
  if (!(n in seen)) { seen[n]; sizes[++count] = n } }
function extra(kind, n) {
    return sprintf("%+.1f us", 1e3 * (ms[kind, n, "NCCL overlapped"] - ms[kind, n, "NCCL send/recv"]))
}
END {
    print "| N, one GPU (`-np 1`) | step without overlap | overlapped, one-row edges: more by |" \
          " overlapped, 16-row edge strips: more by |"
    print "|---|---|---|---|"
    for (i = 1; i <= count; i++) {
        n = sizes[i]
        printf "| %s | %s | %s | %s |\n", n, t(ms["strips", n, "NCCL send/recv"]), extra("row", n), extra("strips", n)
    }
}
