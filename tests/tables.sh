#!/bin/sh
# tests/tables.sh [--write]: the READMEs' results tables, rendered from the CSV committed in
# figures/data/. A table between
#     <!-- table NAME: CSV -->
#     <!-- end table -->
# in any README.md is what recipe NAME below makes of figures/data/CSV. Without --write, each table is
# compared with its rendering and any difference is printed (exit 1): a number edited by hand, or data
# changed without `make tables`. With --write (make tables), the READMEs are rewritten from the data.
set -u
write=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Times as the READMEs write them: microseconds below 1 ms, else milliseconds.
AWK_LIB='
function t(ms) { return ms < 1 ? sprintf("%.0f us", ms * 1e3) : (ms < 100 ? sprintf("%.2f ms", ms) : sprintf("%.1f ms", ms)) }
function x(r) { return r < 2 ? sprintf("%.2fx", r) : sprintf("%.1fx", r) }
function e(n) { return n >= 1e3 && n == 10 ^ int(log(n) / log(10) + 0.5) ? sprintf("1e%d", int(log(n) / log(10) + 0.5)) : n }
BEGIN { FS = "," }
/^#/ || NR == 2 { next }
'

render() {  # render NAME FILE: the table, header included
    case $1 in
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
        }' "$2" ;;
    sgemm_tf32) awk "$AWK_LIB"'
        { g[$1, $2] = $6; err[$1, $2] = $7 }
        END {
            print "| n | tf32 | cuBLAS TF32 | tf32 / cuBLAS TF32 | error, tf32 | error, cuBLAS TF32 |"
            print "|---|---|---|---|---|---|"
            split("1000 1024 2048 4000 4096 4097 8192", sizes, " ")
            for (i = 1; i <= 7; i++) {
                n = sizes[i]; if (!(("tf32", n) in g)) continue
                printf "| %d | %.1f | %.1f | %.0f%% | %.1e | %.1e |\n", n, g["tf32", n] / 1e3, g["cublas_tf32", n] / 1e3,
                       100 * g["tf32", n] / g["cublas_tf32", n], err["tf32", n], err["cublas_tf32", n]
            }
        }' "$2" ;;
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
        }' "$2" ;;
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
        }' "$2" ;;
    peers) awk "$AWK_LIB"'
        $1 == 0 && $2 == 1 { gbs[$3] = $4; to_gpu = $5; to_host = $6 }
        END {
            print "| copy of 256 MiB, GPU 0 to GPU 1 | GB/s | against the host link |"
            print "|---|---|---|"
            printf "| peer access enabled | %.1f | %.1fx the slower host link |\n", gbs["peer_enabled"], gbs["peer_enabled"] / (to_gpu < to_host ? to_gpu : to_host)
            printf "| peer access not enabled (the driver stages through the host) | %.1f | %.0f%% of it |\n", gbs["peer_disabled"], 100 * gbs["peer_disabled"] / (to_gpu < to_host ? to_gpu : to_host)
            printf "| by hand through pinned host memory, 32 MiB chunks | %.1f | %.0f%% of it (%.1f GB/s from GPU 0, %.1f GB/s to GPU 1) |\n", gbs["through_host"], 100 * gbs["through_host"] / (to_gpu < to_host ? to_gpu : to_host), to_host, to_gpu
        }' "$2" ;;
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
        }' "$2" ;;
    *) echo "tables.sh: no recipe '$1'" >&2; return 1 ;;
    esac
}

status=0
for readme in README.md */README.md; do
    # Split the README at its markers: each table's text is replaced by its rendering.
    awk -v tmp="$tmp" '
        /^<!-- table [a-z0-9_]+: [^ ]+ -->$/ { print; n++; print $3, $4 > (tmp "/want." n); inside = 1; printf "@@TABLE %d@@\n", n; next }
        /^<!-- end table -->$/ { inside = 0 }
        !inside { print }' "$readme" >"$tmp/skeleton"
    : >"$tmp/new"
    while IFS= read -r line; do
        case $line in
        @@TABLE*)
            k=$(echo "$line" | tr -dc 0-9)
            read -r name file <"$tmp/want.$k"
            name=${name%:}
            render "$name" "figures/data/$file" >>"$tmp/new" || status=1 ;;
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
