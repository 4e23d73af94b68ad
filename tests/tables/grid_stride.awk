# tests/tables/grid_stride.awk, for tests/tables.sh: ch1_embarrassing/README.md's table "grid_stride":
# the grid-stride kernels at N = 1e8: time, GB/s and share of a copy. From figures/data/:
# results/grid_stride_1e8.csv.
END {
    f = "grid_stride_1e8"
    print "| kernel, N = 1e8 float32 | time | GB/s | of copy |"
    print "|---|---|---|---|"
    rows_time_rate_share(f, "add_array|add_array_gs|add_array_gs_float4|cpu",
        "`add_array`, one thread per element|" \
        "`add_array_gs`, grid-stride|" \
        "going further: float4 loads, grid-stride|" \
        "CPU loop, one core")
}
