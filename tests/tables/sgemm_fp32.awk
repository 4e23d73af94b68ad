# tests/tables/sgemm_fp32.awk, for tests/tables.sh: ch5_matmul/README.md's table "sgemm_fp32": the FP32
# ladder of sgemm_ladder, TFLOP/s per rung and size, the sized rung against cuBLAS. From figures/data/:
# ch5/sgemm_ladder.csv (its columns kernel, n, gflops and tile).
{ g[v("kernel"), v("n")] = v("gflops"); if (v("kernel") == "sized") tile[v("n")] = v("tile") }
END {
    print "| n | naive | coalesced | shared | registers | warptiles | double buffer | sized (tile) | cuBLAS |" \
          " sized / cuBLAS |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    split("1000 1024 2048 4000 4096 4097 8192", sizes, " ")
    split("naive coalesced shared registers warptiles double_buffer", k, " ")
    for (i = 1; i <= 7; i++) {
        n = sizes[i]; if (!(("sized", n) in g)) continue
        line = "| " n
        for (j = 1; j <= 6; j++) line = line " | " ((k[j], n) in g ? sprintf("%.1f", g[k[j], n] / 1e3) : "-")
        printf "%s | %.1f (%s) | %.1f | %.0f%% |\n", line, g["sized", n] / 1e3, tile[n], g["cublas", n] / 1e3,
               100 * g["sized", n] / g["cublas", n]
    }
}
