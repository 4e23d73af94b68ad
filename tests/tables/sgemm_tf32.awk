# tests/tables/sgemm_tf32.awk, for tests/tables.sh: ch5_matmul/README.md's table "sgemm_tf32": rungs 8
# (mma.sync) and 9 (wgmma), each beside the cuBLAS TF32 timed in its own program, and their errors. From
# figures/data/: ch5/sgemm_tensor.csv and ch5/sgemm_hopper.csv.
# Each rung beside the cuBLAS TF32 timed in its own program (the two runs differ a little).
{ f = base(FILENAME) == "sgemm_hopper" ? "h" : "t"
  g[f, v("kernel"), v("n")] = v("gflops"); err[f, v("kernel"), v("n")] = v("rel_error") }
END {
    print "| n | 8. mma_sync | cuBLAS TF32, its run | mma_sync / cuBLAS |" \
          " 9. wgmma | cuBLAS TF32, its run | wgmma / cuBLAS | error: mma_sync, wgmma, cuBLAS TF32 |"
    print "|---|---|---|---|---|---|---|---|"
    split("1000 1024 2048 4000 4096 4097 8192", sizes, " ")
    for (i = 1; i <= 7; i++) {
        n = sizes[i]; if (!(("t", "mma_sync", n) in g)) continue
        mma = g["t", "mma_sync", n]; its_mma = g["t", "cublas_tf32", n]    # rung 8 and cuBLAS in sgemm_tensor's run
        wgmma = g["h", "wgmma", n]; its_wgmma = g["h", "cublas_tf32", n]  # rung 9 and cuBLAS in sgemm_hopper's run
        printf "| %d | %.1f | %.1f | %.0f%% | %.1f | %.1f | %.0f%% | %.1e, %.1e, %.1e |\n", n,
               mma / 1e3, its_mma / 1e3, 100 * mma / its_mma, wgmma / 1e3, its_wgmma / 1e3, 100 * wgmma / its_wgmma,
               err["t", "mma_sync", n], err["h", "wgmma", n], err["t", "cublas_tf32", n]
    }
}
