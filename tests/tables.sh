#!/bin/sh
# tests/tables.sh [--write]: the READMEs' results tables, rendered from the CSV committed in
# figures/data/. A table between
#     <!-- table NAME: CSV... -->
#     <!-- end table -->
# in any README.md is what recipe NAME below makes of the files figures/data/CSV (one or more). The
# files in results/ are the --csv of the programs (common/stats.h): one row per line they print. Without --write, each table is
# compared with its rendering and any difference is printed (exit 1): a number edited by hand, or data
# changed without `make tables`. With --write (make tables), the READMEs are rewritten from the data.
set -u
write=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Times as the READMEs write them: microseconds below 1 ms, else milliseconds.
AWK_LIB='
function t(ms) { return ms < 1 ? sprintf("%.0f us", ms * 1e3) : ms < 100 ? sprintf("%.2f ms", ms) : ms < 1e3 ? sprintf("%.1f ms", ms) : sprintf("%.2f s", ms / 1e3) }
function x(r) { return r < 2 ? sprintf("%.2fx", r) : sprintf("%.1fx", r) }
function e(n) { return n >= 1e3 && n == 10 ^ int(log(n) / log(10) + 0.5) ? sprintf("1e%d", int(log(n) / log(10) + 0.5)) : n }
# The run a file comes from: its first line, "# device: NAME, compute capability ..., DATE TIME UTC".
function run(f) { return dev[base(f)] }
function base(f) { sub(/.*\//, "", f); sub(/\.csv$/, "", f); return f }
function pct(r) { return sprintf("%.0f%%", 100 * r) }
BEGIN { FS = "," }
FNR == 1 { line = $0; sub(/^# (device: )?/, "", line); sub(/ [0-9:]+ UTC.*$/, "", line); dev[base(FILENAME)] = line }
# The header row names the columns: v("name") is the current row'"'"'s field of that name.
FNR == 2 { for (i = 1; i <= NF; i++) H[base(FILENAME), $i] = i }
function v(name) { return $(H[base(FILENAME), name]) }
/^#/ || FNR == 2 { next }
# A results file (stats.h): M = median ms, R = rate (GB/s, GFLOP/s or a value), P = percent of its limit.
{ M[base(FILENAME), $1] = $3; R[base(FILENAME), $1] = $8; P[base(FILENAME), $1] = $10 }
'

# Text as the READMEs write it: lines of at most 104 characters, a `code span` or a "quote" kept whole;
# list(a, n): "a[1], a[2] and a[3]".
AWK_TEXT='
function list(a, n,   i, s) { for (i = 1; i <= n; i++) s = s a[i] (i < n - 1 ? ", " : i == n - 1 ? " and " : ""); return s }
function wrap(text,   words, n, i, line, out, w) {
    n = split(text, words, " "); line = ""
    for (i = 1; i <= n; i++) {
        w = words[i]
        while ((gsub(/`/, "`", w) % 2 == 1 || gsub(/"/, "\"", w) % 2 == 1) && i < n) w = w " " words[++i]
        if (line != "" && length(line) + 1 + length(w) > 104) { out = out line "\n"; line = w }
        else line = line (line == "" ? "" : " ") w
    }
    return out line
}
'

render() {  # render NAME FILE...: the table, header included
    name=$1
    shift
    for f in "$@"; do [ -f "$f" ] || { echo "tables.sh: $f: no such file" >&2; return 1; }; done
    case $name in
    sgemm_fp32) awk "$AWK_LIB"'
        { g[$1, $2] = $6; if ($1 == "sized") tile[$2] = $8 }
        END {
            print "| n | naive | coalesced | shared | registers | warptiles | double buffer | sized (tile) | cuBLAS | sized / cuBLAS |"
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
        }' "$@" ;;
    sgemm_tf32) awk "$AWK_LIB"'
        # Each rung beside the cuBLAS TF32 timed in its own program (the two runs differ a little).
        { f = base(FILENAME) == "sgemm_hopper" ? "h" : "t"; g[f, $1, $2] = $6; err[f, $1, $2] = $7 }
        END {
            print "| n | 8. mma_sync | cuBLAS TF32, its run | mma_sync / cuBLAS | 9. wgmma | cuBLAS TF32, its run | wgmma / cuBLAS | error: mma_sync, wgmma, cuBLAS TF32 |"
            print "|---|---|---|---|---|---|---|---|"
            split("1000 1024 2048 4000 4096 4097 8192", sizes, " ")
            for (i = 1; i <= 7; i++) {
                n = sizes[i]; if (!(("t", "mma_sync", n) in g)) continue
                printf "| %d | %.1f | %.1f | %.0f%% | %.1f | %.1f | %.0f%% | %.1e, %.1e, %.1e |\n", n, g["t", "mma_sync", n] / 1e3,
                       g["t", "cublas_tf32", n] / 1e3, 100 * g["t", "mma_sync", n] / g["t", "cublas_tf32", n], g["h", "wgmma", n] / 1e3,
                       g["h", "cublas_tf32", n] / 1e3, 100 * g["h", "wgmma", n] / g["h", "cublas_tf32", n], err["t", "mma_sync", n],
                       err["h", "wgmma", n], err["t", "cublas_tf32", n]
            }
        }' "$@" ;;
    graphs) awk "$AWK_LIB"'
        { ms[$1, $2] = $5; q[$1, $2] = $8; if ($1 == "graph") sizes[++count] = $2 }
        END {
            print "| elements per array | stream by stream | graph | speed-up | host time to queue: streams | graph |"
            print "|---|---|---|---|---|---|"
            for (i = 1; i <= count; i++) {
                n = sizes[i]
                printf "| %s%s | %s | %s | %s | %.0f us | %.0f us |\n", e(n), n == 1e7 ? " (the article'"'"'s)" : "",
                       t(ms["streams", n]), t(ms["graph", n]), x(ms["streams", n] / ms["graph", n]), q["streams", n], q["graph", n]
            }
        }' "$@" ;;
    multi_gpu) awk "$AWK_LIB"'
        $3 == "one_gpu" { one[$1] = $5; sizes[++count] = $1 }
        $3 == "nccl" { nccl[$1] = $5; gpus = $2 }
        $3 == "through_host" { host[$1] = $5 }
        END {
            printf "| normalise, end to end | one GPU | %s GPUs, NCCL | speed-up | %s GPUs, through the host |\n", gpus, gpus
            print "|---|---|---|---|---|"
            for (i = 1; i <= count; i++) {
                n = sizes[i]
                if (n < 1e7) continue  # the table starts at the article size; the figure has the rest
                label = n == 1e7 ? "1e7 elements (the article'"'"'s)" : e(n)
                if (n > 1e9) label = sprintf("%.0fe9 (%.0f GB, %.0f GB per GPU)", n / 1e9, n * 4e-9, n * 4e-9 / gpus)
                printf "| %s | %s | %s | %.2fx | %s |\n", label, t(one[n]), t(nccl[n]), one[n] / nccl[n], t(host[n])
            }
        }' "$@" ;;
    heat_mpi) awk "$AWK_LIB"'
        # Files heat_mpi_RANKS_N.csv (heat_mpi --csv): way,ranks,n,median_ms,gbs, in the marker by growing N
        # (a row per N, in that order; the last is the bar'"'"'s plate). Times to three figures.
        function t3(ms) { return ms < 0.1 ? sprintf("%.1f us", ms * 1e3) : ms < 1 ? sprintf("%.0f us", ms * 1e3) : sprintf("%.2f ms", ms) }
        { ms[$2, $3, $1] = $4; if (!($3 in seen)) { seen[$3]; sizes[++count] = $3 } if ($2 > ranks) ranks = $2 }
        END {
            printf "| N | one GPU (1 rank, NCCL) | %d ranks, MPI_Sendrecv | %d ranks, NCCL | %d ranks, NCCL overlapped | speed-up (overlapped) | halo alone | one band, no halo |\n", ranks, ranks, ranks
            print "|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= count; i++) {
                n = sizes[i]; one = ms[1, n, "NCCL send/recv"]; both = ms[ranks, n, "NCCL overlapped"]  # one GPU: as the figure
                label = i < count ? n : sprintf("%s (%.1f GB per GPU)", n, 8 * int((n - 2) / ranks) * n / 1e9)
                speedup = i < count ? x(one / both) : "**" x(one / both) "**"  # the largest plate: the bar
                printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", label, t3(one), t3(ms[ranks, n, "MPI_Sendrecv"]),
                       t3(ms[ranks, n, "NCCL send/recv"]), t3(both), speedup, t3(ms[ranks, n, "halo exchange alone (NCCL)"]),
                       t3(ms[ranks, n, "one band without halo"])
            }
        }' "$@" ;;
    heat_edges) awk "$AWK_LIB"'
        # heat_mpi -np 1 before (one_row_1_N.csv) and after (strips_1_N.csv) the edge strips: what the
        # overlapped step costs over the same program'"'"'s step without overlap, with nothing to exchange.
        # A row per N, in the marker'"'"'s order.
        { kind = FILENAME ~ /one_row_/ ? "row" : "strips"; ms[kind, $3, $1] = $4; if (!($3 in seen)) { seen[$3]; sizes[++count] = $3 } }
        function extra(kind, n) { return sprintf("%+.1f us", 1e3 * (ms[kind, n, "NCCL overlapped"] - ms[kind, n, "NCCL send/recv"])) }
        END {
            print "| N, one GPU (`-np 1`) | step without overlap | overlapped, one-row edges: more by | overlapped, 16-row edge strips: more by |"
            print "|---|---|---|---|"
            for (i = 1; i <= count; i++) {
                n = sizes[i]
                printf "| %s | %s | %s | %s |\n", n, t(ms["strips", n, "NCCL send/recv"]), extra("row", n), extra("strips", n)
            }
        }' "$@" ;;
    peers) awk "$AWK_LIB"'
        $1 == 0 && $2 == 1 { gbs[$3] = $4; to_gpu = $5; to_host = $6 }
        END {
            print "| copy of 256 MiB, GPU 0 to GPU 1 | GB/s | against the host link |"
            print "|---|---|---|"
            printf "| peer access enabled | %.1f | %.1fx the slower host link |\n", gbs["peer_enabled"], gbs["peer_enabled"] / (to_gpu < to_host ? to_gpu : to_host)
            printf "| peer access not enabled (the driver stages through the host) | %.1f | %.0f%% of it |\n", gbs["peer_disabled"], 100 * gbs["peer_disabled"] / (to_gpu < to_host ? to_gpu : to_host)
            printf "| by hand through pinned host memory, 32 MiB chunks | %.1f | %.0f%% of it (%.1f GB/s from GPU 0, %.1f GB/s to GPU 1) |\n", gbs["through_host"], 100 * gbs["through_host"] / (to_gpu < to_host ? to_gpu : to_host), to_host, to_gpu
        }' "$@" ;;
    scan) awk "$AWK_LIB"'
        { g[$1, $2] = $7; if ($2 > max) max = $2 }
        END {
            print "| n | three kernels | single pass | CUB | single pass / CUB | device copy |"
            print "|---|---|---|---|---|---|"
            split("1000000 10000000 100000000 1000000000", sizes, " "); sizes[5] = max
            for (i = 1; i <= 5; i++) {
                n = sizes[i]; if (!(("cub", n) in g) || (i == 5 && n == sizes[4])) continue
                label = n == 2147483659 ? "2^31 + 11 (64-bit sums)" : e(n)
                printf "| %s | %.0f | %.0f | %.0f | %.0f%% | %.0f |\n", label, g["three_kernels", n], g["single_pass", n],
                       g["cub", n], 100 * g["single_pass", n] / g["cub", n], g["copy", n]
            }
        }' "$@" ;;
    grid_stride) awk "$AWK_LIB"'
        END {
            f = "grid_stride_1e8"
            print "| kernel, N = 1e8 float32 | time | GB/s | of copy |"
            print "|---|---|---|---|"
            split("add_array (1 thread/element)|add_array_gs (grid-stride)|going further: float4 loads|CPU loop; one core", k, "|")
            split("`add_array`, one thread per element|`add_array_gs`, grid-stride|going further: float4 loads, grid-stride|CPU loop, one core", label, "|")
            for (i = 1; i <= 4; i++)
                printf "| %s | %s | %.0f | %s |\n", label[i], t(M[f, k[i]]), R[f, k[i]], P[f, k[i]] == "" ? "" : sprintf("%.0f%%", P[f, k[i]])
        }' "$@" ;;
    reductions) awk "$AWK_LIB"'
        END {
            print "| N = 1e9 float32 | kernel alone | as the article times it: + copy of the partial sums + host sum | the article (Colab, mean +- std) |"
            print "|---|---|---|---|"
            split("reduce_naive|better|library", f, "|"); split("30 +- 11 ms|23 +- 1 ms|20 +- 0 ms", art, "|")
            split("`naive`|`better`|`library` (CUB; the article: Numba'"'"'s `cuda.reduce`)", label, "|")
            split("kernel alone (events)|kernel alone (events)|CUB; result on device", k1, "|")
            split("+ copy + host finish (wall)|+ copy + host finish (wall)|CUB + copy to host (wall)", k2, "|")
            for (i = 1; i <= 3; i++)
                printf "| %s | %s | %s | %s |\n", label[i], t(M[f[i], k1[i]]), t(M[f[i], k2[i]]), art[i]
            printf "| CPU, one core (here a C loop in double; the article: NumPy) | | %s | 557 +- 307 ms |\n", t(M["reduce_naive", "CPU loop in double; 1 core"])
        }' "$@" ;;
    ladder) awk "$AWK_LIB"'
        { g[$1, $2] = $7 }
        END {
            print "| N | naive | better | warp_shuffle | CUB | better / CUB | warp_shuffle / CUB | CUB / copy |"
            print "|---|---|---|---|---|---|---|---|"
            split("1000000 10000000 100000000 1000000000", sizes, " ")
            for (i = 1; i <= 4; i++) {
                n = sizes[i]; if (!(("cub", n) in g)) continue
                printf "| %s | %.0f | %.0f | %.0f | %.0f | %.1f%% | %.1f%% | %.0f%% |\n", e(n), g["naive", n], g["better", n],
                       g["warp_shuffle", n], g["cub", n], 100 * g["better", n] / g["cub", n],
                       100 * g["warp_shuffle", n] / g["cub", n], 100 * g["cub", n] / g["copy", n]
            }
        }' "$@" ;;
    reduce2d) awk "$AWK_LIB"'
        END {
            f = "reduce2d"
            print "| launch, 20000 x 20000 float32 | time | GB/s | of CUB |"
            print "|---|---|---|---|"
            split("article: 16x16 threads; 64x64 blocks|32x8 threads; 64x64 blocks|32x8 threads; one wave of blocks|cub::DeviceReduce::Sum; raveled", k, "|")
            split("the article'"'"'s: 16 x 16 threads, 64 x 64 blocks|32 x 8 threads, 64 x 64 blocks|32 x 8 threads, one wave of blocks|`cub::DeviceReduce::Sum` on the raveled array", label, "|")
            for (i = 1; i <= 4; i++)
                printf "| %s | %s | %.0f | %s |\n", label[i], t(M[f, k[i]]), R[f, k[i]], P[f, k[i]] == "" ? "" : sprintf("%.0f%%", P[f, k[i]])
        }' "$@" ;;
    streams) awk "$AWK_LIB"'
        END {
            printf "| run, 10 arrays of 1e7 float32 | time | of the transfer bound (%s, measured in each run) |\n", t(R["streams", "transfer bound"])
            print "|---|---|---|"
            split("streams|streams|streams|streams_2", f, "|")
            split("1 stream|10 streams|10 streams; copies in chained|2 streams", k, "|")
            split("1 stream|10 streams|10 streams, copies in chained|2 streams", label, "|")
            for (i = 1; i <= 4; i++)
                printf "| %s | %s | %.2fx |\n", label[i], t(M[f[i], k[i]]), M[f[i], k[i]] / R[f[i], "transfer bound"]
            printf "| 10 streams, pageable memory | %s | %.2fx of its own bound (%s); 1 stream: %s |\n", t(M["streams_pageable", "10 streams"]),
                   M["streams_pageable", "10 streams"] / R["streams_pageable", "transfer bound"], t(R["streams_pageable", "transfer bound"]),
                   t(M["streams_pageable", "1 stream"])
        }' "$@" ;;
    vector_add) awk "$AWK_LIB"'
        END {
            f = "vector_add_streams"
            print "| c = a + b, 2e7 float64 | 1 stream | 5 streams | transfer bound |"
            print "|---|---|---|---|"
            split("pinned pageable", kind, " ")
            for (i = 1; i <= 2; i++) {
                b = R[f, "transfer bound; " kind[i]]; one = M[f, "1 stream; " kind[i]]; five = M[f, "5 streams; " kind[i]]
                printf "| %s | %s (%.2fx the bound) | %s (%.2fx) | %s |\n", kind[i], t(one), one / b, t(five), five / b, t(b)
            }
        }' "$@" ;;
    histogram) awk "$AWK_LIB"'
        END {
            print "| version | 5.6 MB text | | 1 GB text | |"
            print "|---|---|---|---|---|"
            split("histogram|histogram|histogram|histogram|histogram_wide|histogram_wide", f, "|")
            split("CPU; naive loop; 1 core|CPU; best loop; 1 core|GPU; global atomics (4.3)|GPU; shared memory (4.4)|16 B loads; 256 bins; no branch|CUB HistogramEven", k, "|")
            split("CPU naive loop|CPU best loop|GPU global atomics (4.3)|GPU shared memory (4.4)|going further, 256 bins|CUB `HistogramEven`", label, "|")
            for (i = 1; i <= 6; i++)
                printf "| %s | %s | %.1f GB/s | %s | %.1f GB/s |\n", label[i], t(M[f[i], k[i]]), R[f[i], k[i]],
                       t(M[f[i] "_1e9", k[i]]), R[f[i] "_1e9", k[i]]
        }' "$@" ;;
    dot_mutex) awk "$AWK_LIB"'
        $1 ~ /^dot_mutex; / { b = $1; sub(/^dot_mutex; /, "", b); sub(/ blocks$/, "", b); if (b + 0 != 640) wide = b }
        END {
            f = "dot_mutex"
            printf "| version, N = 1e7 | 640 blocks (the article'"'"'s 32 x 20) | %s blocks (32 x SMs) |\n", wide
            print "|---|---|---|"
            split("dot_partial (host adds)|dot_mutex|dot_atomic (atomicAdd float)", k, "|")
            split("`dot_partial`, host adds the partials|`dot_mutex`, thread 0 of each block under the lock|`dot_atomic`, `atomicAdd` on a float", label, "|")
            for (i = 1; i <= 3; i++)
                printf "| %s | %s | %s |\n", label[i], t(M[f, k[i] "; 640 blocks"]), t(M[f, k[i] "; " wide " blocks"])
        }' "$@" ;;
    matmul) awk "$AWK_LIB"'
        END {
            n = 10112; m = n * n * n
            print "| kernel, int64 | n = 10112 | multiply-adds/s | / the page'"'"'s naive | n = 2500 |"
            print "|---|---|---|---|---|"
            split("the page'"'"'s naive; adds into C|naive; sum in a register|the page'"'"'s tiled kernel|going further: 4 rows/thread", k, "|")
            split("the page'"'"'s kernel; adds into C|sum in a register||", k2, "|")
            split("the page'"'"'s naive kernel, adds into C in global memory|naive, sum in a register (the first correction)|the page'"'"'s tiled kernel (shared memory)|going further: 32 x 8 threads, 4 rows of C each", label, "|")
            for (i = 1; i <= 4; i++)
                printf "| %s | %s | %.2f T | %.2f | %s |\n", label[i], t(M["shared", k[i]]), m / (M["shared", k[i]] * 1e-3) / 1e12,
                       M["shared", k[i]] / M["shared", k[1]], k2[i] == "" ? "" : t(M["naive", k2[i]])
        }' "$@" ;;
    end_to_end) awk "$AWK_LIB"'
        END {
            f = "naive"; gpu = run(f); sub(/,.*/, "", gpu); e2e = M[f, "the page'"'"'s kernel; end to end"]
            printf "| n = 2500, int64 | here (%s; CPU: one core) | the page (GTX 970) |\n", gpu
            print "|---|---|---|"
            printf "| the page'"'"'s kernel, end to end (allocate, copies in and out, kernel) | %s | 0.63 s |\n", t(e2e)
            printf "| the page'"'"'s kernel alone | %s | |\n", t(M[f, "the page'"'"'s kernel; adds into C"])
            printf "| sum in a register, kernel alone | %s | |\n", t(M[f, "sum in a register"])
            printf "| CPU, i-k-j loop in C | %.1f s (%.0fx the GPU end to end) | C++ with STL vectors: about 9 s (14x) |\n",
                   R[f, "CPU; i-k-j (rows of B)"] / 1e3, R[f, "CPU; i-k-j (rows of B)"] / e2e
            printf "| CPU, i-j-k loop in C (the definition'"'"'s order) | %.1f s | |\n", R[f, "CPU; i-j-k (definition)"] / 1e3
            print "| NumPy'"'"'s int64 `A @ B` | not run (no Python in this course) | 27.47 s (44x) |"
        }' "$@" ;;
    labs) awk "$AWK_LIB"'
        # labs/solutions.csv (the whole H200) and labs/solutions_gtx1650.csv (held to 14 SMs): make labs
        # SOLUTIONS=1, a row a lab; labs/graded.csv: a row a file graded (LAB.handout, LAB.solution, ...).
        function ms(value) { return value == "-" ? "not timed" : sprintf("%.3f ms", value) }
        { f = base(FILENAME) }
        f == "graded" { split(v("name"), part, "."); if (part[2] == "handout") handout[part[1]] = v("verdict"); next }
        { l = v("lab"); if (f == "solutions_gtx1650") order[n++] = l
          seen[f, l] = 1; time[f, l] = v("time_ms"); pl[f, l] = v("percent_of_limit"); lim[f, l] = v("limit")
          verdict[f, l] = v("verdict"); secs[f, l] = v("seconds"); san[f, l] = v("sanitizer"); self[f, l] = v("percent_of_solution") }
        END {
            printf "%s: `make labs SOLUTIONS=1`, every lab. %s: the same, the GPU held to 14 SMs\n", run("solutions"), run("solutions_gtx1650")
            print "and 4 GiB by MPS. As handed out: `tests/labs.t` on the whole H200. Times by the judge'"'"'s clock, medians; each"
            print "solution is timed against itself (its share of its own speed shows the noise); \"-\": not measured there."
            print ""
            print "| lab | H200: solution | itself | against its limit | graded in | as handed out | 14 SMs: solution | itself |"
            print "|---|---|---|---|---|---|---|---|"
            for (i = 0; i < n; i++) {
                l = order[i]; g = "solutions_gtx1650"; h = "solutions"
                printf "| `%s` | %s | %s | %s | %s | %s | %s, %s | %s |\n", l,
                       seen[h, l] ? ms(time[h, l]) : "-", seen[h, l] && self[h, l] != "-" ? self[h, l] "%" : "-",
                       seen[h, l] && pl[h, l] != "-" ? pl[h, l] "% " lim[h, l] : "-", seen[h, l] ? secs[h, l] " s" : "-",
                       (l in handout) ? handout[l] : "-", ms(time[g, l]), verdict[g, l], self[g, l] == "-" ? "-" : self[g, l] "%"
            }
        }' "$@" ;;
    lab_mistakes) awk "$AWK_LIB"'
        { split(v("name"), part, "."); if (part[2] == "handout" || part[2] == "solution") next
          k = ++m; lab[k] = part[1]; name[k] = part[2]; want[k] = v("want"); got[k] = v("verdict") }
        END {
            printf "%s: each planted mistake graded by `labs/grade`, the slow ones timed against the solution, the\n", run("graded")
            print "others without timing:"
            print ""
            print "| lab | planted mistake | the report that must catch it | what `labs/grade` said |"
            print "|---|---|---|---|"
            for (i = 1; i <= m; i++)
                printf "| `%s` | `%s` | %s | %s |\n", lab[i], name[i], want[i] == "wrong" ? "the result check" : want[i] == "slow" ? "the timing" : want[i], got[i]
        }' "$@" ;;
    results) awk "$AWK_LIB"'
        { if (base(FILENAME) == "ladder") lad[$1, $2] = $7
          if (base(FILENAME) == "scan") scan[$1, $2] = $7
          if (base(FILENAME) == "graphs") gr[$1, $2] = $5
          if (base(FILENAME) == "multi_gpu") mg[$1, $3] = $5
          if (base(FILENAME) ~ /^heat_mpi_/) hm[$2, $1] = $4  # heat_mpi_RANKS_N.csv: way,ranks,n,median_ms,gbs
          if (base(FILENAME) == "peers" && $1 == 0 && $2 == 1) { pe[$3] = $4; h2g = $5; g2h = $6 }
          if (base(FILENAME) == "sgemm_hopper") hp[$1, $2] = $6
          else if (base(FILENAME) == "sgemm_ladder") ld[$1, $2] = $6
          else if (base(FILENAME) ~ /^sgemm_/) sg[$1, $2] = $6
          if ($1 ~ /^dot_mutex; / && $1 !~ /; 640 blocks$/) wide = $1 }
        END {
            printf "%s: one run of `make figures` (what it printed: `figures/data/run.log`); `multi_gpu` and `peers`, which need\n", run("grid_stride_1e8")
            printf "two GPUs, on a machine with two of them: %s; `sgemm_ladder`, after the ladder was split, and `sgemm_tensor` and\n", run("multi_gpu")
            printf "`sgemm_hopper`, after the `mma.sync` rung changed, each in a run of its own: %s; `heat` and `heat_mpi`, on a\n", run("sgemm_tensor")
            printf "machine with two GPUs: %s.\n", run("heat_mpi_2_45000")
            print "Kernel times by CUDA events, medians; CPU figures are one core of that machine."
            print ""
            print "| chapter, program | measurement | result | against |"
            print "|---|---|---|---|"
            f = "grid_stride_1e8"; k = "going further: float4 loads"; copy = R[f, k] / P[f, k] * 100; cpu = M[f, "CPU loop; one core"]
            printf "| 1 `grid_stride -n 1e8` | float32 add, float4 grid-stride | %s, %.0f GB/s | %.0f%% of the %.0f GB/s device copy; CPU %s (%.0fx) |\n",
                   t(M[f, k]), R[f, k], P[f, k], copy, t(cpu), cpu / M[f, k]
            k = "add_array_gs (grid-stride)"
            printf "| 1 `grid_stride -n 1e8` | the article'"'"'s grid-stride loop | %s, %.0f GB/s | %.0f%% of copy |\n", t(M[f, k]), R[f, k], P[f, k]
            n = 1e9; b = 4e9 / lad["better", n] / 1e6; cpu = M["better", "CPU loop in double; 1 core"]
            printf "| 2 `ladder` | sum of 1e9 float32, `better` (tree) | %s, %.0f GB/s | %.0f%% of CUB; CPU (double) %s (%.0fx) |\n",
                   t(b), lad["better", n], 100 * lad["better", n] / lad["cub", n], t(cpu), cpu / b
            printf "| 2 `ladder` | `warp_shuffle`, single pass | %.0f GB/s | %.1f%% of CUB, which is %.0f%% of copy |\n", lad["warp_shuffle", n],
                   100 * lad["warp_shuffle", n] / lad["cub", n], 100 * lad["cub", n] / lad["copy", n]
            k = "article: 16x16 threads; 64x64 blocks"
            printf "| 2 `reduce2d` | 20000 x 20000, the article'"'"'s launch | %.0f GB/s | %.0f%% of CUB on the same elements |\n", R["reduce2d", k], P["reduce2d", k]
            printf "| 3 `streams` | 10 arrays x 40 MB, 10 streams | %s | %.2fx the %s transfer bound; %.2fx faster than 1 stream |\n",
                   t(M["streams", "10 streams"]), M["streams", "10 streams"] / R["streams", "transfer bound"], t(R["streams", "transfer bound"]),
                   M["streams", "1 stream"] / M["streams", "10 streams"]
            f = "vector_add_streams"
            printf "| 3 `vector_add_streams` | 2e7 float64, 5 streams | %s | %.2fx the transfer bound; 1 stream %s |\n", t(M[f, "5 streams; pinned"]),
                   M[f, "5 streams; pinned"] / R[f, "transfer bound; pinned"], t(M[f, "1 stream; pinned"])
            printf "| 3 `graphs` | 10 arrays of 1e4, 110 operations | graph %s | %s faster than stream by stream (%s) |\n", t(gr["graph", 1e4]),
                   x(gr["streams", 1e4] / gr["graph", 1e4]), t(gr["streams", 1e4])
            big = "4000000000"
            printf "| 3 `multi_gpu` | normalise 4e9 float32, 2 GPUs, NCCL | %s | %.2fx one GPU (%s) |\n", t(mg[big, "nccl"]),
                   mg[big, "one_gpu"] / mg[big, "nccl"], t(mg[big, "one_gpu"])
            printf "| 3 `peers` | 256 MiB from GPU 0 to GPU 1 | %.0f GB/s | without peer access %.0f GB/s; host links %.1f and %.1f GB/s |\n",
                   pe["peer_enabled"], pe["peer_disabled"], g2h, h2g
            f = "heat"; k = "one Jacobi step"
            printf "| 3 `heat` | 8192 x 8192 plate, one Jacobi step | %.1f us, %.0f GB/s | %.0f%% of the %.0f GB/s device copy |\n", 1e3 * M[f, k], R[f, k],
                   P[f, k], R[f, k] / P[f, k] * 100
            printf "| 3 `heat_mpi -n 45000` | 8.1 GB per GPU, 2 ranks, NCCL overlapped | %s | %.2fx one GPU (%s); without overlap %s |\n",
                   t(hm[2, "NCCL overlapped"]), hm[1, "NCCL send/recv"] / hm[2, "NCCL overlapped"], t(hm[1, "NCCL send/recv"]), t(hm[2, "NCCL send/recv"])
            f = "histogram"
            printf "| 4 `histogram` | 5.6 MB text, shared-memory histogram (4.4) | %s | %.0fx faster than global atomics (4.3); best CPU loop %s |\n",
                   t(M[f, "GPU; shared memory (4.4)"]), M[f, "GPU; global atomics (4.3)"] / M[f, "GPU; shared memory (4.4)"], t(M[f, "CPU; best loop; 1 core"])
            f = "histogram_wide"; k = "16 B loads; 256 bins; no branch"
            printf "| 4 `histogram_wide` | the same text, 16 B loads, 256 bins | %s, %.0f GB/s | %.2fx CUB |\n", t(M[f, k]), R[f, k], M[f, "CUB HistogramEven"] / M[f, k]
            f = "histogram_wide_1e9"
            printf "| 4 `histogram_wide -n 1e9` | 1 GB of it | %s, %.0f GB/s | %.2fx CUB; %.0f%% of the copy bandwidth |\n", t(M[f, k]), R[f, k],
                   M[f, "CUB HistogramEven"] / M[f, k], P[f, k]
            f = "dot_mutex"
            w = wide; sub(/^dot_mutex; /, "", w)
            printf "| 4 `dot_mutex` | N = 1e7, 640 blocks | mutex %s, atomicAdd %s | mutex at %s: %s |\n", t(M[f, "dot_mutex; 640 blocks"]),
                   t(M[f, "dot_atomic (atomicAdd float); 640 blocks"]), w, t(M[f, wide])
            printf "| 4 `scan` | 1e9 int32, single pass with look-back | %.0f GB/s | %.0f%% of CUB (%.0f), %.0f%% of copy; three kernels %.0f GB/s |\n",
                   scan["single_pass", n], 100 * scan["single_pass", n] / scan["cub", n], scan["cub", n], 100 * scan["single_pass", n] / scan["copy", n],
                   scan["three_kernels", n]
            f = "equalize"; g = M[f, "the whole; one stream"]; cpu = R[f, "CPU (one core; the same steps)"]
            printf "| 4 `equalize` | 8192 x 8192 picture, four kernels | %s | CPU (one core) %s (%.0fx) |\n", t(g), t(cpu), cpu / g
            f = "naive"; e2e = M[f, "the page'"'"'s kernel; end to end"]; cpu = R[f, "CPU; i-k-j (rows of B)"]
            printf "| 5 `naive -n 2500` | int64, the page'"'"'s kernel, end to end | %s | CPU i-k-j loop %s (%.0fx); the page: 0.63 s, NumPy 27.47 s, C++ about 9 s |\n",
                   t(e2e), t(cpu), cpu / e2e
            f = "shared"
            printf "| 5 `shared` | int64, n = 10112, the page'"'"'s tiled kernel | %s | %.2f of the page'"'"'s naive kernel (%s); the page: 0.34 |\n",
                   t(M[f, "the page'"'"'s tiled kernel"]), M[f, "the page'"'"'s tiled kernel"] / M[f, "the page'"'"'s naive; adds into C"], t(M[f, "the page'"'"'s naive; adds into C"])
            f = "blas"; k = "cublasDgemm alone"
            printf "| 5 `blas` | `cublasDgemm`, n = 10112 | %s, %.1f TFLOP/s | %.0f%% of the FP64 peak; bit for bit equal to the int64 product |\n", t(M[f, k]), R[f, k] / 1e3, P[f, k]
            printf "| 5 `sgemm_ladder` | float32, n = 4096, warp tiles, double buffered | %.1f TFLOP/s | %.0f%% of `cublasSgemm` (%.1f, %.0f%% of the fp32 peak) |\n",
                   ld["sized", 4096] / 1e3, 100 * ld["sized", 4096] / ld["cublas", 4096], ld["cublas", 4096] / 1e3, 100 * ld["cublas", 4096] / ld["peak_fp32", 0]
            printf "| 5 `sgemm_tensor` | TF32 tensor cores (`mma.sync`), n = 4096 | %.1f TFLOP/s | %.0f%% of cuBLAS TF32 (%.1f); %.0f%% of the `mma.sync` ceiling |\n",
                   sg["mma_sync", 4096] / 1e3, 100 * sg["mma_sync", 4096] / sg["cublas_tf32", 4096], sg["cublas_tf32", 4096] / 1e3,
                   100 * sg["mma_sync", 4096] / sg["mma_ceiling", 0]
            printf "| 5 `sgemm_hopper` | TF32, TMA and `wgmma` (sm_90a), n = 4096 | %.1f TFLOP/s | %.0f%% of cuBLAS TF32 in its own run (%.1f); %.0f%% of the `wgmma` ceiling (%.0f) |\n",
                   hp["wgmma", 4096] / 1e3, 100 * hp["wgmma", 4096] / hp["cublas_tf32", 4096], hp["cublas_tf32", 4096] / 1e3,
                   100 * hp["wgmma", 4096] / hp["wgmma_ceiling", 0], hp["wgmma_ceiling", 0] / 1e3
        }' "$@" ;;
    small_gpu_run)
        # One run of make small-gpu, from EMULATION/results.tsv for each emulation given and the files
        # beside it: calls.tsv (when, GPU, driver, CUDA, parts: a line per call), device_query.log,
        # make_test.log and the programs' logs (2gib_*.log: the 2 GiB card's).
        files=""
        for f in "$@"; do
            d=${f%/results.tsv}
            for g in "$d/calls.tsv" "$d/device_query.log" "$f" "$d/make_test.log"; do
                [ -f "$g" ] || { echo "tables.sh: $g: no such file" >&2; return 1; }
                files="$files $g"
            done
            files="$files $(ls "$d"/2gib_*.log 2>/dev/null | tr '\n' ' ')"
        done
        # shellcheck disable=SC2086  # one argument per file
        awk -F'\t' "$AWK_TEXT"'
        function program(row) { sub(/ .*/, "", row); sub(/.*\//, "", row); return row }
        FNR == 1 { e = FILENAME; sub(/\/[^\/]*$/, "", e); sub(/.*\//, "", e); if (!(e in seen)) { seen[e] = 1; emu[++ne] = e } }
        FILENAME ~ /calls\.tsv$/ {
            gpu = $2 " (driver " $3 ", " $4 ")"
            if (first_gpu == "") first_gpu = gpu
            else if (gpu != first_gpu) { print "tables.sh: small_gpu_run: calls on " first_gpu " and on " gpu ": not one run" > "/dev/stderr"; bad = 1 }
            if (from == "" || $1 < from) from = $1
            if ($1 > to) to = $1
            calls++ }
        FILENAME ~ /device_query\.log$/ && /^device 0:/ {
            split($0, w, ", "); sms[e] = w[3]; free[e] = w[4]; sub(/.*\(/, "", free[e]); sub(/ free\)/, " GiB free", free[e])
            l2 = w[5]; sub(/^L2 /, "", l2) }
        FILENAME ~ /results\.tsv$/ && $1 ~ /\(2 GiB\)$/ {
            if ($3 ~ /expected/) { if ($2 != 1) failed[++nf] = "`" $1 "` (exit " $2 ", 1 expected)"; else { refused = $1; sub(/ \(2 GiB\)$/, "", refused) } }
            else if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
            else if ($3 != "") two[++n2] = "`" program($1) "` to `" $3 "`"
            next }
        FILENAME ~ /results\.tsv$/ && ($1 ~ /^ch[0-9]_/ || $1 ~ /^quick start/) {
            runs[e]++
            if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
            else if ($3 != "") shrunk[e, ++nshr[e]] = "`" program($1) "` to `" $3 "`"
            next }
        FILENAME ~ /results\.tsv$/ {
            if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
            else if ($1 == "make test") tested[e] = 1
            else if ($1 ~ /^make labs/) labs[e] = 1 }
        FILENAME ~ /make_test\.log$/ && /^Files=/ { split($0, w, ", "); tests[e] = w[2]; sub(/Tests=/, "", tests[e]) }
        FILENAME ~ /make_test\.log$/ && /^make test: [0-9]+ test\(s\) skipped/ { skipped[e] = $0; sub(/^make test: /, "", skipped[e]); sub(/ test\(s\) skipped.*/, "", skipped[e]) }
        FILENAME ~ /make_test\.log$/ && /checked again alone/ { again[e]++ }
        FILENAME ~ /2gib_/ && /^note: the default .*: using .* instead$/ && example == "" { example = $0 }
        END {
            if (bad) exit 1
            card["gtx1650"] = "a GTX 1650"; card["t4"] = "a T4"
            split(first_gpu, g, " \\("); gpu_name = g[1]
            for (i = 1; i <= ne; i++) {
                x = emu[i]
                cards[i] = x in card ? sms[x] " with " free[x] " (" card[x] ")" : "the whole GPU (" sms[x] ")"
                if (!tested[x] || !labs[x]) failed[++nf] = "`make test` or the labs not run under " x
                if (tests[x] != tests[emu[1]]) failed[++nf] = "`make test` ran " tests[x] " tests under " x ", " tests[emu[1]] " under " emu[1]
                if (runs[x] != runs[emu[1]]) failed[++nf] = runs[x] " default runs under " x ", " runs[emu[1]] " under " emu[1]
                sk[i] = skipped[x] + 0; ag[i] = again[x] + 0
                if (nshr[x] > 0) {
                    for (k = 1; k <= nshr[x]; k++) one[k] = shrunk[x, k]
                    small[++nsm] = list(one, nshr[x]) (x in card ? " for " card[x] : " on the whole GPU")
                }
            }
            text = "**What was tested.** Smaller cards were emulated on an " gpu_name \
                   " with CUDA'"'"'s Multi-Process Service, which can give a program a share of the SMs and a cap on memory: " list(cards, ne) "."
            if (nf == 0)
                text = text " Under each, `make test` (" tests[emu[1]] " tests; " list(sk, ne) " skipped, each saying why), the labs'"'"' solutions" \
                       " (`make labs SOLUTIONS=1`), the quick start and every program'"'"'s default run (" runs[emu[1]] " programs) exit 0 with `check: PASS`."
            else
                text = text " Not everything passed: " list(failed, nf) "."
            text = text " MPS does not emulate the architecture: an " gpu_name " held to " sms[emu[1]] " is still an sm_90 with 2048 threads per SM, " l2 " of L2 and HBM bandwidth." \
                   " Turing'"'"'s own limits (64 registers a thread in a block of 1024, 48 KiB of static shared memory) are checked by" \
                   " compiling every kernel for sm_75 in `make test`; no program has run on a real Turing card here."
            print wrap(text)
            print ""
            d1 = from; sub(/T.*/, "", d1); sub(/.*T/, "", from); sub(/Z$/, "", from); sub(/.*T/, "", to); sub(/Z$/, "", to)
            text = "The figures of this section come from `make small-gpu` on an " first_gpu ", " d1 " from " from " to " to \
                   " UTC, committed in `figures/data/small_gpu/`: each emulation'"'"'s `results.tsv` and every log, and the table `small_gpu.md`." \
                   " It took " calls " calls (each emulation'"'"'s `calls.tsv` lists them), each running a part: a device call here ends at 10 minutes, and `KEEP=1` merges the parts." \
                   " Under MPS a GPU fault in one process ends every process on the GPU, so `tests/labs.t` checks again, alone, each lab check" \
                   " that a CUDA error stopped while four ran at a time: " list(ag, ne) " of them under the " (ne == 3 ? "three" : ne) " emulations" (nf == 0 ? ", each passing alone." : ".")
            print wrap(text)
            print ""
            text = "**What a 4 GB card changes.** Chapter 2 sums the article'"'"'s 1e9 floats: 4 GB, more than a 4 GB card has free." \
                   " There `naive`, `better`, `library`, `warp_shuffle` and `ladder` take the largest size that fits and say so in one line"
            text = text (example != "" ? ", as on the 2 GiB card of this run (" list(two, n2) "): `" example "`." : ".")
            if (nsm > 0) { text = text " Under the emulations, other defaults shrank: "; for (i = 1; i <= nsm; i++) text = text small[i] (i < nsm ? "; " : ".") }
            text = text " A size you give with `-n` that does not fit ends with exit 1, what it needs, what is free and the largest that fits" \
                   (refused != "" ? " (`" refused "` on the 2 GiB card)." : ".")
            print wrap(text)
        }' $files ;;
    small_gpu_times) awk -F'\t' "$AWK_TEXT"'
        # EMULATION/results.tsv: program, exit, size used, seconds; EMULATION/PROGRAM.log: its output.
        FILENAME ~ /gtx1650\/results\.tsv$/ && $1 ~ /^ch[0-9]_/ && $1 !~ /\(2 GiB\)$/ && $4 + 0 > 10 {
            name = $1; sub(/.*\//, "", name); slow[++count] = name; secs[name] = $4
            log_of[name] = $1; gsub(/\//, "_", log_of[name]) }  # ch5_matmul/shared: ch5_matmul_shared.log
        FILENAME ~ /gtx1650\/ch[0-9]_.*\.log$/ && match($0, /will take about [0-9]+ s/) {
            f = FILENAME; sub(/.*\//, "", f); sub(/\.log$/, "", f)
            if (!(f in said)) said[f] = substr($0, RSTART + 10, RLENGTH - 10) }
        END {
            text = "**How long.** On the 14-SM emulation every default run takes 10 s or less"
            if (count == 0) { print wrap(text "."); exit }
            for (i = 1; i <= count; i++) {
                times[i] = "`" slow[i] "` (" secs[slow[i]] " s)"
                if (log_of[slow[i]] in said) { names[++n] = "`" slow[i] "`"; quotes[n] = "\"" said[log_of[slow[i]]] "\"" }
            }
            text = text ", except " list(times, count) "."
            if (n > 0)  # only what the committed logs show
                text = text " " list(names, n) (n > 1 ? " say" : " says") " before " (n > 1 ? "their" : "its") \
                       " long part how long it will take and which option makes it shorter (" list(quotes, n) ")."
            print wrap(text)
        }' "$@" ;;
    *) echo "tables.sh: no recipe '$name'" >&2; return 1 ;;
    esac
}

status=0
for readme in README.md */README.md; do
    # Split the README at its markers: each table's text is replaced by its rendering.
    awk -v tmp="$tmp" '
        /^<!-- table [a-z0-9_]+: [^ ]+( [^ ]+)* -->$/ {
            print; n++; files = ""; for (i = 4; i < NF; i++) files = files " " $i
            print $3 files > (tmp "/want." n); inside = 1; printf "@@TABLE %d@@\n", n; next }
        /^<!-- end table -->$/ { inside = 0 }
        !inside { print }' "$readme" >"$tmp/skeleton"
    : >"$tmp/new"
    while IFS= read -r line; do
        case $line in
        @@TABLE*)
            k=$(echo "$line" | tr -dc 0-9)
            read -r name files <"$tmp/want.$k"
            name=${name%:}
            paths=""
            for f in $files; do paths="$paths figures/data/$f"; done
            # shellcheck disable=SC2086  # one argument per file
            render "$name" $paths >>"$tmp/new" || status=1 ;;
        *) printf '%s\n' "$line" >>"$tmp/new" ;;
        esac
    done <"$tmp/skeleton"
    rm -f "$tmp"/want.*
    if ! cmp -s "$readme" "$tmp/new"; then
        if [ "$write" = --write ]; then
            cp "$tmp/new" "$readme"
            echo "tables: $readme rewritten from figures/data/"
        else
            echo "tables: $readme differs from what its data renders (make tables rewrites it):"
            diff "$readme" "$tmp/new" | head -n 20
            status=1
        fi
    fi
done
exit $status
