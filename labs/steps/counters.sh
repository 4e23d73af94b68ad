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
# counters_run NAME RUNNER: ncu on RUNNER's small sizes, its CSV in $tmp/out.counters/NAME.csv; the report's
# line for a run that gave none (exit 1)
counters_run() {
    mkdir -p "$tmp/out.counters" && rm -f "$tmp/out.counters/$1.csv"
    # (--launch-count: a bound on the time; every kernel replayed once per pass of counters. --clock-control
    # none: counts do not depend on the clocks, which ncu would otherwise lock, for the GPU's other users too)
    judge_run "$tmp/counters.$1" counters --small -- "$ncu" --csv --metrics "$(counters_metrics | paste -sd, -)" \
        --launch-count 200 --clock-control none --kernel-name-base function \
        --log-file "$tmp/out.counters/$1.csv" "$2" >/dev/null
    if grep -q 'ERR_NVGPUCTRPERM' "$tmp/out.counters/$1.csv" "$tmp/counters.$1" 2>/dev/null; then
        echo "  not measured: ncu may not read this GPU's counters here (ERR_NVGPUCTRPERM: the driver keeps them"
        echo "  to administrators: NVreg_RestrictProfilingToAdminUsers=0 opens them); the grade is the same"
        return 1
    fi
    awk -f "$root/labs/counters.awk" "$tmp/out.counters/$1.csv" >"$tmp/counters.$1.sums" 2>/dev/null
    [ -s "$tmp/counters.$1.sums" ] && return 0
    # (why: ncu's first error, else the first line of the run's own that is not the judge's: a tool that
    # could not start says so there)
    why=$(grep -h '==ERROR==' "$tmp/out.counters/$1.csv" "$tmp/counters.$1" 2>/dev/null | head -n 1)
    [ -n "$why" ] || why=$(grep -v '^judge-\|^device [0-9]*: \|^Lab \|^==PROF==\|^ *$' "$tmp/counters.$1" 2>/dev/null |
                           head -n 1)
    echo "  not measured: ncu gave no counters for the $1's kernels ($(echo "${why:-it said nothing}" |
        cut -c1-100)); the grade is the same"
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
    mkdir -p "$tmp/out.profile" && rm -f "$tmp/out.profile/file.csv"
    judge_run "$tmp/profile" profile --time -r 1 -- "$ncu" --csv --metrics "$(echo $profile_metrics | tr ' ' ,)" \
        --launch-count 50 --clock-control none --kernel-name-base function \
        --log-file "$tmp/out.profile/file.csv" "$runner" >/dev/null
    awk -v weigh=gpu__time_duration.sum -f "$root/labs/counters.awk" "$tmp/out.profile/file.csv" >"$tmp/profile.sums" \
        2>/dev/null
    share() {  # share COUNTER: its share in whole percent, "-" where ncu gave none
        awk -v m="$1" 'index($1, m ".") == 1 { printf "%.0f", $2; found = 1; exit } END { if (!found) printf "-" }' \
            "$tmp/profile.sums"
    }
    if ! grep -q '^gpu__time_duration' "$tmp/profile.sums"; then
        why=$(grep -h 'ERR_NVGPUCTRPERM\|==ERROR==' "$tmp/out.profile/file.csv" "$tmp/profile" 2>/dev/null | head -n 1)
        echo "  not measured: ncu gave no figures ($(echo "${why:-it said nothing}" | cut -c1-100))"
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
