# tests/tables/results.awk, for tests/tables.sh: README.md's table "results": the course's results, a
# row per chapter's headline, each against its limit. From figures/data/: the CSV files the marker
# lists.
{ f = base(FILENAME)
  if (f == "ladder") lad[v("variant"), v("n")] = v("gbs")
  if (f == "scan") scan[v("variant"), v("n")] = v("gbs")
  if (f == "graphs") gr[v("way"), v("n")] = v("median_ms")
  if (f == "multi_gpu") mg[v("n"), v("way")] = v("median_ms")
  if (f ~ /^heat_mpi_/) hm[v("ranks"), v("way")] = v("median_ms")  # heat_mpi_RANKS_N.csv
  if (f == "peers" && v("from") == 0 && v("to") == 1) {
      pe[v("way")] = v("gbs"); h2g = v("host_to_gpu_gbs"); g2h = v("gpu_to_host_gbs") }
  if (f == "sgemm_hopper") hp[v("kernel"), v("n")] = v("gflops")
  else if (f == "sgemm_ladder") ld[v("kernel"), v("n")] = v("gflops")
  else if (f ~ /^sgemm_/) sg[v("kernel"), v("n")] = v("gflops")
  if (f == "dot_mutex" && v("key") ~ /^dot_mutex_[0-9]+$/ && v("key") != "dot_mutex_640") wide = v("key") }
END {
    # The runs behind the table, a line each as the README wraps them.
    printf "%s: one run of `make figures` (what it printed: `figures/data/run.log`); `multi_gpu` and" \
           " `peers`, which need\n", run("grid_stride_1e8")
    printf "two GPUs, on a machine with two of them: %s; `sgemm_ladder`, after the ladder was split," \
           " and `sgemm_tensor` and\n", run("multi_gpu")
    printf "`sgemm_hopper`, after the `mma.sync` rung changed, each in a run of its own: %s; `heat` and" \
           " `heat_mpi`, on a\n", run("sgemm_tensor")
    printf "machine with two GPUs: %s.\n", run("heat_mpi_2_45000")
    print "Times by CUDA events, medians, but `heat_mpi`'s (the wall clock over a run of steps, between barriers of" \
          " its ranks)"
    print "and `naive`'s end to end (the wall clock around the whole call, as the page timed it); CPU figures are" \
          " one core"
    print "of that machine, by the wall clock, medians but for `equalize`'s and `naive`'s, one run each."
    print ""
    # A row a headline: | chapter, program | measurement | result | against |, a long row's format
    # broken before its last column.
    print "| chapter, program | measurement | result | against |"
    print "|---|---|---|---|"
    f = "grid_stride_1e8"; k = "add_array_gs_float4"
    copy = rate_of(f, k) / percent_of(f, k) * 100; cpu = median_of(f, "cpu")
    printf "| 1 `grid_stride -n 1e8` | float32 add, float4 grid-stride | %s, %.0f GB/s |" \
           " %.0f%% of the %.0f GB/s device copy; CPU %s (%.0fx) |\n",
           t(median_of(f, k)), rate_of(f, k), percent_of(f, k), copy, t(cpu), cpu / median_of(f, k)
    k = "add_array_gs"
    printf "| 1 `grid_stride -n 1e8` | the article's grid-stride loop | %s, %.0f GB/s | %.0f%% of copy |\n",
           t(median_of(f, k)), rate_of(f, k), percent_of(f, k)
    n = 1e9; b = 4e9 / lad["better", n] / 1e6; cpu = median_of("better", "cpu")
    printf "| 2 `ladder` | sum of 1e9 float32, `better` (tree) | %s, %.0f GB/s |" \
           " %.0f%% of CUB; CPU (double) %s (%.0fx) |\n",
           t(b), lad["better", n], 100 * lad["better", n] / lad["cub", n], t(cpu), cpu / b
    printf "| 2 `ladder` | `warp_shuffle`, single pass | %.0f GB/s | %.1f%% of CUB, which is %.0f%% of copy |\n",
           lad["warp_shuffle", n], 100 * lad["warp_shuffle", n] / lad["cub", n], 100 * lad["cub", n] / lad["copy", n]
    k = "article"
    printf "| 2 `reduce2d` | 20000 x 20000, the article's launch | %.0f GB/s | %.0f%% of CUB on the same elements |\n",
           rate_of("reduce2d", k), percent_of("reduce2d", k)
    f = "streams"; ms = median_of(f, "streams_10"); bound = rate_of(f, "transfer_bound")
    printf "| 3 `streams` | 10 arrays x 40 MB, 10 streams | %s |" \
           " %.2fx the %s transfer bound; %.2fx faster than 1 stream |\n",
           t(ms), ms / bound, t(bound), median_of(f, "streams_1") / ms
    f = "vector_add_streams"; ms = median_of(f, "streams_5_pinned")
    printf "| 3 `vector_add_streams` | 2e7 float64, 5 streams | %s | %.2fx the transfer bound; 1 stream %s |\n",
           t(ms), ms / rate_of(f, "transfer_bound_pinned"), t(median_of(f, "streams_1_pinned"))
    printf "| 3 `graphs` | 10 arrays of 1e4, 110 operations | graph %s | %s faster than stream by stream (%s) |\n",
           t(gr["graph", 1e4]), x(gr["streams", 1e4] / gr["graph", 1e4]), t(gr["streams", 1e4])
    big = "4000000000"
    printf "| 3 `multi_gpu` | normalise 4e9 float32, 2 GPUs, NCCL | %s | %.2fx one GPU (%s) |\n",
           t(mg[big, "nccl"]), mg[big, "one_gpu"] / mg[big, "nccl"], t(mg[big, "one_gpu"])
    printf "| 3 `peers` | 256 MiB from GPU 0 to GPU 1 | %.0f GB/s |" \
           " without peer access %.0f GB/s; host links %.1f and %.1f GB/s |\n",
           pe["peer_enabled"], pe["peer_disabled"], g2h, h2g
    f = "heat"; k = "jacobi_step"
    printf "| 3 `heat` | 8192 x 8192 plate, one Jacobi step | %.1f us, %.0f GB/s |" \
           " %.0f%% of the %.0f GB/s device copy |\n",
           1e3 * median_of(f, k), rate_of(f, k), percent_of(f, k), rate_of(f, k) / percent_of(f, k) * 100
    one = hm[1, "NCCL send/recv"]; both = hm[2, "NCCL overlapped"]
    printf "| 3 `heat_mpi -n 45000` | 8.1 GB per GPU, 2 ranks, NCCL overlapped | %s |" \
           " %.2fx one GPU (%s); without overlap %s |\n",
           t(both), one / both, t(one), t(hm[2, "NCCL send/recv"])
    f = "histogram"; ms = median_of(f, "gpu_shared")
    printf "| 4 `histogram` | 5.6 MB text, shared-memory histogram (4.4) | %s |" \
           " %.0fx faster than global atomics (4.3); best CPU loop %s |\n",
           t(ms), median_of(f, "gpu_global") / ms, t(median_of(f, "cpu_best"))
    f = "histogram_wide"; k = "wide"
    printf "| 4 `histogram_wide` | the same text, 16 B loads, 256 bins | %s, %.0f GB/s | %.2fx CUB |\n",
           t(median_of(f, k)), rate_of(f, k), median_of(f, "cub") / median_of(f, k)
    f = "histogram_wide_1e9"
    printf "| 4 `histogram_wide -n 1e9` | 1 GB of it | %s, %.0f GB/s | %.2fx CUB; %.0f%% of the copy bandwidth |\n",
           t(median_of(f, k)), rate_of(f, k), median_of(f, "cub") / median_of(f, k), percent_of(f, k)
    f = "dot_mutex"
    w = wide; sub(/^dot_mutex_/, "", w); w = w " blocks"
    printf "| 4 `dot_mutex` | N = 1e7, 640 blocks | mutex %s, atomicAdd %s | mutex at %s: %s |\n",
           t(median_of(f, "dot_mutex_640")), t(median_of(f, "dot_atomic_640")), w, t(median_of(f, wide))
    printf "| 4 `scan` | 1e9 int32, single pass with look-back | %.0f GB/s |" \
           " %.0f%% of CUB (%.0f), %.0f%% of copy; three kernels %.0f GB/s |\n",
           scan["single_pass", n], 100 * scan["single_pass", n] / scan["cub", n], scan["cub", n],
           100 * scan["single_pass", n] / scan["copy", n], scan["three_kernels", n]
    f = "equalize"; g = median_of(f, "whole"); cpu = rate_of(f, "cpu")
    printf "| 4 `equalize` | 8192 x 8192 picture, four kernels | %s | CPU (one core) %s (%.0fx) |\n",
           t(g), t(cpu), cpu / g
    f = "naive"; e2e = median_of(f, "naive_end_to_end"); cpu = rate_of(f, "cpu_ikj")
    printf "| 5 `naive -n 2500` | int64, the page's kernel, end to end | %s |" \
           " CPU i-k-j loop %s (%.0fx); the page: 0.63 s, NumPy 27.47 s, C++ about 9 s |\n",
           t(e2e), t(cpu), cpu / e2e
    f = "shared"
    printf "| 5 `shared` | int64, n = 10112, the page's tiled kernel | %s |" \
           " %.2f of the page's naive kernel (%s); the page: 0.34 |\n",
           t(median_of(f, "tiled")), median_of(f, "tiled") / median_of(f, "naive"), t(median_of(f, "naive"))
    f = "blas"; k = "dgemm"
    printf "| 5 `blas` | `cublasDgemm`, n = 10112 | %s, %.1f TFLOP/s |" \
           " %.0f%% of the FP64 peak; bit for bit equal to the int64 product |\n",
           t(median_of(f, k)), rate_of(f, k) / 1e3, percent_of(f, k)
    n = 4096; sized = ld["sized", n]; cublas = ld["cublas", n]
    printf "| 5 `sgemm_ladder` | float32, n = 4096, warp tiles, double buffered | %.1f TFLOP/s |" \
           " %.0f%% of `cublasSgemm` (%.1f, %.0f%% of the fp32 peak) |\n",
           sized / 1e3, 100 * sized / cublas, cublas / 1e3, 100 * cublas / ld["peak_fp32", 0]
    mma = sg["mma_sync", n]; cublas = sg["cublas_tf32", n]
    printf "| 5 `sgemm_tensor` | TF32 tensor cores (`mma.sync`), n = 4096 | %.1f TFLOP/s |" \
           " %.0f%% of cuBLAS TF32 (%.1f); %.0f%% of the `mma.sync` ceiling |\n",
           mma / 1e3, 100 * mma / cublas, cublas / 1e3, 100 * mma / sg["mma_ceiling", 0]
    wgmma = hp["wgmma", n]; cublas = hp["cublas_tf32", n]; ceiling = hp["wgmma_ceiling", 0]
    printf "| 5 `sgemm_hopper` | TF32, TMA and `wgmma` (sm_90a), n = 4096 | %.1f TFLOP/s |" \
           " %.0f%% of cuBLAS TF32 in its own run (%.1f); %.0f%% of the `wgmma` ceiling (%.0f) |\n",
           wgmma / 1e3, 100 * wgmma / cublas, cublas / 1e3, 100 * wgmma / ceiling, ceiling / 1e3
}
