# tests/tables/reductions.awk, for tests/tables.sh: ch2_reduction/README.md's table "reductions": the
# article's reductions at N = 1e9, the kernel alone and timed as the article times it. From
# figures/data/: results/reduce_naive.csv, results/better.csv, results/library.csv.
END {
    print "| N = 1e9 float32 | kernel alone | as the article times it: + copy of the partial sums + host sum |" \
          " the article (Colab, mean +- std) |"
    print "|---|---|---|---|"
    split("reduce_naive|better|library", f, "|"); split("30 +- 11 ms|23 +- 1 ms|20 +- 0 ms", art, "|")
    split("`naive`|`better`|`library` (CUB; the article: Numba's `cuda.reduce`)", label, "|")
    split("kernel|kernel|cub", k1, "|")
    split("with_copy|with_copy|cub_with_copy", k2, "|")
    for (i = 1; i <= 3; i++)
        printf "| %s | %s | %s | %s |\n", label[i], t(median_of(f[i], k1[i])), t(median_of(f[i], k2[i])), art[i]
    printf "| CPU, one core (here a C loop in double; the article: NumPy) | | %s | 557 +- 307 ms |\n",
           t(median_of("reduce_naive", "cpu"))
}
