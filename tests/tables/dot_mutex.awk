# tests/tables/dot_mutex.awk, for tests/tables.sh: ch4_atomics_mutex/README.md's table "dot_mutex": the
# dot product finished with a mutex, at the article's launch and a wide one. From figures/data/:
# results/dot_mutex.csv.
# The wide launch's block count ends its key (dot_mutex_4224: 32 x the SMs of the run's GPU).
v("key") ~ /^dot_mutex_[0-9]+$/ { b = v("key"); sub(/^dot_mutex_/, "", b); if (b + 0 != 640) wide = b }
END {
    f = "dot_mutex"
    printf "| version, N = 1e7 | 640 blocks (the article's 32 x 20) | %s blocks (32 x SMs) |\n", wide
    print "|---|---|---|"
    split("dot_partial|dot_mutex|dot_atomic", k, "|")
    split("`dot_partial`, host adds the partials|" \
          "`dot_mutex`, thread 0 of each block under the lock|" \
          "`dot_atomic`, `atomicAdd` on a float", label, "|")
    for (i = 1; i <= 3; i++)
        printf "| %s | %s | %s |\n", label[i], t(median_of(f, k[i] "_640")), t(median_of(f, k[i] "_" wide))
}
