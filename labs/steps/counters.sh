# labs/steps/counters.sh: step 4 of labs/grade (sourced), after "PASS but slow" only: the counters that say
# why. Nsight Compute (ncu, in the toolkit) profiles the small sizes of the file's calls, and of the course's
# solution's on the same inputs, in the runner's sandbox; the lab's counters (labs/counters.txt), each summed
# over the kernels of every call, are printed side by side with the lesson they point at. The grade is the
# same whatever ncu does: where it cannot read the GPU's counters (a driver that keeps them to
# administrators: ERR_NVGPUCTRPERM) or is missing, the step says so. LAB_COUNTERS=0 leaves it out.
#   labs/counters.awk reads ncu's CSV (labs/counters.txt says which counters, and why each).
counters_metrics() { awk -v l="$lab" '!/^[[:space:]]*#/ && $1 == l { print $2 }' "$root/labs/counters.txt"; }
# counters_ncu: the ncu to run: LAB_NCU; else Nsight Compute's own, the newest of those beside the toolkit
# (nsight-compute-VERSION) or where NVIDIA installs it alone (/opt/nvidia/nsight-compute/VERSION); else the
# toolkit's bin/ncu or the one in PATH. (The toolkit's bin/ncu is a launcher that looks for one of the first
# two: run in the sandbox, which shows only the folder of the ncu it is given, it would find neither.)
ncu_installs=/opt/nvidia/nsight-compute
counters_ncu() {
    own=$(ls -d "$cuda_dir"/nsight-compute*/ncu "$ncu_installs"/*/ncu 2>/dev/null |
          awk -F/ '{ print $(NF - 1) "\t" $0 }' | sed 's/^nsight-compute-//' | sort -V | tail -n 1 | cut -f 2)
    for c in "${LAB_NCU:-}" "$own" "$cuda_dir/bin/ncu" "$(command -v ncu 2>/dev/null)"; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}
# ncu_csv KIND NAME RUNNER LAUNCHES METRICS [JUDGE OPTION...]: ncu on RUNNER through the judge (its options:
# which sizes), in the runner's sandbox, on its first LAUNCHES kernels; its CSV in $tmp/out.KIND/NAME.csv,
# the judge's report in $tmp/KIND.NAME. (--clock-control none: counts do not depend on the clocks, which ncu
# would otherwise lock, for the GPU's other users too.)
ncu_csv() {
    mkdir -p "$tmp/out.$1" && rm -f "$tmp/out.$1/$2.csv"
    ncu_kind=$1 ncu_name=$2 ncu_runner=$3 ncu_launches=$4 ncu_metrics=$5; shift 5
    judge_run "$tmp/$ncu_kind.$ncu_name" "$ncu_kind" "$@" -- "$ncu" --csv --metrics "$ncu_metrics" \
        --launch-count "$ncu_launches" --clock-control none --kernel-name-base function \
        --log-file "$tmp/out.$ncu_kind/$ncu_name.csv" "$ncu_runner" >/dev/null
}
# ncu_why KIND NAME: why ncu gave nothing: its first error, else the first line of the run's own that is not
# the judge's (a tool that could not start says so there), 100 characters at most
ncu_why() {
    why=$(grep -h '==ERROR==' "$tmp/out.$1/$2.csv" "$tmp/$1.$2" 2>/dev/null | head -n 1)
    [ -n "$why" ] ||
        why=$(grep -v '^judge-\|^device [0-9]*: \|^Lab \|^==PROF==\|^ *$' "$tmp/$1.$2" 2>/dev/null | head -n 1)
    echo "${why:-it said nothing}" | cut -c1-100
}
# counters_run NAME RUNNER: step 4's counters on RUNNER's small sizes, summed in $tmp/counters.NAME.sums; the
# report's line for a run that gave none (exit 1). (--launch-count 200: a bound on the time; every kernel
# is replayed once per pass of counters.)
counters_run() {
    ncu_csv counters "$1" "$2" 200 "$(counters_metrics | paste -sd, -)" --small
    if grep -q 'ERR_NVGPUCTRPERM' "$tmp/out.counters/$1.csv" "$tmp/counters.$1" 2>/dev/null; then
        echo "  not measured: ncu may not read this GPU's counters here (ERR_NVGPUCTRPERM: the driver keeps them"
        echo "  to administrators: NVreg_RestrictProfilingToAdminUsers=0 opens them); the grade is the same"
        return 1
    fi
    awk -f "$root/labs/counters.awk" "$tmp/out.counters/$1.csv" >"$tmp/counters.$1.sums" 2>/dev/null
    [ -s "$tmp/counters.$1.sums" ] && return 0
    echo "  not measured: ncu gave no counters for the $1's kernels ($(ncu_why counters "$1")); the grade is the same"
    return 1
}
step_counters() {
    [ "${LAB_COUNTERS:-1}" != 0 ] && [ -n "$(counters_metrics)" ] || return 0
    echo "4. Counters (Nsight Compute, the small sizes; each summed over every kernel of the calls)"
    ncu=$(counters_ncu) || { echo "  not measured: no ncu here (Nsight Compute, in the CUDA Toolkit)"; return 0; }
    counters_run file "$runner" || return 0
    theirs=""  # the solution's sums, where there is a solution and ncu gave them
    if [ -f "$solution_file" ]; then
        [ -n "${solution_runner:-}" ] || solution_runner=$(build_solution) || solution_runner=""
        if [ -n "$solution_runner" ] && counters_run solution "$solution_runner" >/dev/null; then
            theirs="$tmp/counters.solution.sums"
        fi
    fi
    printf '  %-44s %16s %16s\n' "" "yours" "${theirs:+the solution}"
    awk -v l="$lab" -v file="$tmp/counters.file.sums" -v sol="$theirs" '
        FILENAME == file { mine[$1] = $2; next }
        FILENAME == sol { its[$1] = $2; next }
        !/^[[:space:]]*#/ && $1 == l {
            what = $0; sub(/^[^ ]+ +[^ ]+ +/, "", what); lesson = what
            sub(/ *\|.*/, "", what); sub(/^[^|]*\| */, "", lesson)
            printf "  %-44s %16s %16s\n", what, ($2 in mine) ? mine[$2] : "-", sol == "" ? "" : \
                (($2 in its) ? its[$2] : "-")
            if (!(lesson in said)) { said[lesson] = 1; lessons[++n] = lesson }
        }
        END { for (i = 1; i <= n; i++) print "  what it points at: " lessons[i] }
    ' "$tmp/counters.file.sums" ${theirs:+"$theirs"} "$root/labs/counters.txt"
}

# ==== What binds it (LAB_PROFILE=1: the course's own benchmark, tests/solution_limits.sh) ====
# Nsight Compute's "speed of light" shares for the file's kernels at the timed size (one timed call, in the
# runner's sandbox), each the mean over the kernels weighed by their time: DRAM, L2, L1 and shared memory,
# the SMs' busiest pipe, and the warps resident (occupancy). One near 100% says what binds the kernels; none
# near says latency: too few warps in flight, or launches too short to fill the GPU. A report's line
# grade-profile holds them for scripts. The grade is the same.
profile_metrics="gpu__time_duration.sum dram__throughput.avg.pct_of_peak_sustained_elapsed
lts__throughput.avg.pct_of_peak_sustained_elapsed l1tex__throughput.avg.pct_of_peak_sustained_active
sm__throughput.avg.pct_of_peak_sustained_elapsed sm__warps_active.avg.pct_of_peak_sustained_active"
step_profile() {
    [ "${LAB_PROFILE:-0}" = 1 ] || return 0
    step_mark profile
    echo "What binds it (LAB_PROFILE=1; Nsight Compute at the timed size, each share the kernels' mean by time)"
    ncu=$(counters_ncu) || { echo "  not measured: no ncu here (Nsight Compute, in the CUDA Toolkit)"; return 0; }
    ncu_csv profile file "$runner" 50 "$(echo $profile_metrics | tr ' ' ,)" --time -r 1
    awk -v weigh=gpu__time_duration.sum -f "$root/labs/counters.awk" "$tmp/out.profile/file.csv" >"$tmp/profile.sums" \
        2>/dev/null
    share() {  # share COUNTER: its share in whole percent, "-" where ncu gave none
        awk -v m="$1" 'index($1, m ".") == 1 { printf "%.0f", $2; found = 1; exit } END { if (!found) printf "-" }' \
            "$tmp/profile.sums"
    }
    if ! grep -q '^gpu__time_duration' "$tmp/profile.sums"; then
        echo "  not measured: ncu gave no figures ($(ncu_why profile file))"
        return 0
    fi
    echo "  the profiled kernels' time: $(awk '$1 == "gpu__time_duration.sum" { printf "%.1f", $2 / 1e3 }' \
        "$tmp/profile.sums") us (its first 50 launches at most, the runner's own left out)"
    echo "  DRAM $(share dram__throughput)%, L2 $(share lts__throughput)%, L1 and shared memory" \
        "$(share l1tex__throughput)%, the SMs' busiest pipe $(share sm__throughput)%; warps resident" \
        "$(share sm__warps_active)% of the most the SMs hold"
    echo "grade-profile dram $(share dram__throughput) l2 $(share lts__throughput) l1 $(share l1tex__throughput)" \
        "sm $(share sm__throughput) warps $(share sm__warps_active)" >"$tmp/profile.line"
}
