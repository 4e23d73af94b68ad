# tests/tables/matmul.awk, for tests/tables.sh: ch5_matmul/README.md's table "matmul": the French page's
# int64 kernels at n = 10112 and 2500, in multiply-adds/s. From figures/data/: results/shared.csv and
# results/naive.csv.
END {
    n = 10112; m = n * n * n
    print "| kernel, int64 | n = 10112 | multiply-adds/s | / the page's naive | n = 2500 |"
    print "|---|---|---|---|---|"
    split("naive|register_sum|tiled|four_rows", k, "|")
    split("naive|register_sum||", k2, "|")
    split("the page's naive kernel, adds into C in global memory|" \
          "naive, sum in a register (the first correction)|" \
          "the page's tiled kernel (shared memory)|" \
          "going further: 32 x 8 threads, 4 rows of C each", label, "|")
    for (i = 1; i <= 4; i++) {
        ms = median_of("shared", k[i])
        printf "| %s | %s | %.2f T | %.2f | %s |\n", label[i], t(ms), m / (ms * 1e-3) / 1e12,
               ms / median_of("shared", k[1]), k2[i] == "" ? "" : t(median_of("naive", k2[i]))
    }
}
