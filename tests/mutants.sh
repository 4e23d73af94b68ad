#!/bin/sh
# tests/mutants.sh [--list]: the mutation run (make mutants). Can every test fail? Small changes are
# planted one at a time in a copy of the course, never in the working tree, and the quickest tests that
# read the changed file run on each: a change that makes one of them fail is killed; one that none
# notices is a survivor, listed with its place. Mull, the mutation tool for C and C++
# (https://github.com/mull-project/mull), is the reference for what is planted and how it is reported:
# its mutators' names (cxx_lt_to_le, cxx_ge_to_gt, cxx_eq_to_ne, ... without the prefix), its statuses
# (killed, survived, timed out: killed) and its report's lines, FILE:LINE:COLUMN: warning: Survived:
# Replaced A with B [OPERATOR], the line and a caret below it.
# What is planted (tests/mutants_sites.awk reads the places from the sources, in a fixed order; the
# prose's, tests/mutants_prose.awk, from the ledger), and the tests that run on it (cover_of, below):
#   common/*.c (and the tolerances of common/*.h)    comparisons, tolerances    tests/unit_common
#   labs/judge/*.c, *.h (the host side)               comparisons, tolerances    gpu (timed.c: first
#                                                                                tests/clock.t; random.h:
#                                                                                tests/random.t; channel.c:
#                                                                                first tests/channel.t)
#   labs/grade, labs/steps/build.sh                   comparisons, lines deleted tests/grade.t
#   labs/steps/run.sh, correctness.sh, sanitizer.sh   comparisons, lines deleted tests/grade.t (run.sh: first
#                                                                                tests/gpu_lock.t and
#                                                                                tests/sandbox.t), then gpu
#   labs/findings.awk                                 comparisons, lines deleted tests/findings.t, then gpu
#   labs/counters.awk, labs/steps/counters.sh         comparisons, lines deleted tests/counters.t, then gpu
#   labs/steps/speed.sh                               comparisons, lines deleted gpu
#   labs/rules.sh, elf.awk, sass.awk                  comparisons, lines deleted tests/rules.t's readers,
#                                                                                tests/grade.t, tests/rules.t
#   labs/rules.txt                                    a count, a rule of every lab  tests/grade.t, rules.t
#   labs/targets.txt (SMALL, LARGE)                   a target doubled           tests/labs.t's targets' check
#   the prose's traced numbers (tests/ledger.sh's     a digit changed, in the sentence and in its row alike,
#   DOCS: the READMEs, CONTRIBUTING.md, course.ipynb, as an author who edits both would: only the source
#   the labs' statements)                             the row names can tell     tests/ledger.sh
# A change that only a GPU could show (the judges' checks, the grade's steps that run them, speed; the
# functions of common/ that need a GPU, GPU_FUNCTIONS) is "gpu": where there is no GPU, it is not run
# (or, run here and not killed, not called a survivor) and is listed apart, never accepted; on a machine
# with a GPU it runs under tests/labs.t, LAB_SUBSET the labs that read the file (a file every lab reads:
# LABS_SAMPLE's), or under tests/gpu.t and tests/cli.t. A survivor the course accepts is a line of
# tests/mutants_accepted.txt: its id and why (an equivalent change, a check another issue owns). Exit 0
# when every survivor is accepted (the report, output/mutants/report.txt, says which are not).
# Environment: MUTANTS_SAMPLE=N runs N mutants drawn at random (MUTANTS_SEED=S, printed, replays a draw);
# MUTANTS_ONLY=REGEX those of the files whose path matches (MUTANTS_IDS=REGEX: the sites whose id does);
# MUTANTS_JOBS=J copies side by side (1); MUTANTS_DIR the copies' and reports' folder (output/mutants:
# the copies are kept between runs, for the builds their tests cache); MUTANTS_SITES=FILE the sites of
# FILE instead of the sources' (tests/mutants.t plants its own); MUTANTS_RECORD=FILE records the run
# there (figures/data/mutants/run.txt, its counts, and beside it results.tsv and runs.tsv:
# tests/mutants_record.sh), merged with the groups recorded before (MUTANTS_ONLY, a group at a time);
# MUTANTS_FROM=FILE, a record's results.tsv: only the sites it says were killed by a test or accepted
# (tests/mutants.t's sample, which no survivor of the record can fail).
# --list prints the sites and plants nothing: ID FILE LINE COLUMN OPERATOR CLASS COVER FROM TO.
set -u
LC_ALL=C
export LC_ALL
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
tab=$(printf '\t')
work=${MUTANTS_DIR:-$root/output/mutants}
accepted=${MUTANTS_ACCEPTED:-$root/tests/mutants_accepted.txt}
LABS_SAMPLE="ch1_map ch2_block_sum ch3_graph ch4_histogram ch5_tiled"  # (a file that every judge reads)

# ==== The sites ====
# cover_of FILE: CLASS and COVER, "STAGES;GPU" (tests/mutants_worker.sh runs them): the tests run here on
# each mutant, quickest first, then those only a GPU runs. CLASS says which: host, gpu, or both.
cover_of() {
    case $1 in
        common/*) echo "host unit;" ;;
        labs/judge/timed.c) echo "both clock;$(judge_labs "$1")" ;;
        labs/judge/random.h) echo "both random;$(judge_labs "$1")" ;;
        labs/judge/channel.c) echo "both channel;$(judge_labs "$1")" ;;
        labs/judge/*) echo "gpu ;$(judge_labs "$1")" ;;
        labs/grade|labs/steps/build.sh) echo "host grade;" ;;
        labs/steps/run.sh) echo "both lock+sandbox+grade;$LABS_SAMPLE" ;;
        labs/steps/correctness.sh|labs/steps/sanitizer.sh) echo "both grade;$LABS_SAMPLE" ;;
        labs/findings.awk) echo "both findings;$LABS_SAMPLE" ;;
        labs/counters.awk|labs/steps/counters.sh) echo "both counters;$LABS_SAMPLE" ;;
        labs/steps/*) echo "gpu ;$LABS_SAMPLE" ;;
        labs/rules.sh|labs/*.awk) echo "host readers+grade+rules;" ;;
        labs/rules.txt) echo "host grade+rules;" ;;
        labs/targets.txt) echo "host targets;" ;;
        *.md|*.ipynb|labs/*.cu) echo "host ledger;" ;;
    esac
}
# The functions of common/ that only a GPU runs (their callers are the programs): a change there that
# tests/unit_common does not notice is left to tests/gpu.t and tests/cli.t on a GPU ("programs").
# size_to_fit and what it reads of the host; a sweep's sizes, its reference and its estimates; and the
# tolerances (FLOAT_ROUNDING, the sweep's), which the programs' checks of their GPU results use.
GPU_FUNCTIONS="measure_copy_bandwidth measure_transfer_bandwidth cuda_check device_need_memory device_start
sweep_check sweep_finish sweep_start sweep_time gpu_timer_create gpu_timer_destroy gpu_timer_start gpu_timer_stop
timed_runs size_to_fit host_available_bytes largest_size read_bytes sweep_next say_how_long_the_rest
sweep_tf32_summary"
# The lines of labs/grade and its build step that only a grade on a GPU reaches (the steps after the
# first, the seed's, the device's and the clock's lines, the runner put in place, a lab timed in several processes),
# or a grade that shares a GPU (make labs, labs/gradebook: LAB_GPU_LOCK's waits and their step marks).
GPU_LINES='step_(sanitizer|speed)|step_mark (sanitizer|speed|waiting)|steps/(speed|sanitizer)\.sh|\$tmp/(ran|device)|'
GPU_LINES=$GPU_LINES'unset SEED|^processes=|runner\.\$\$" "\$dir/runner"|^gpu_lock (shared|alone)|grade-clock-ms'
# judge_labs FILE: the labs whose judge includes FILE (through the headers that include it), else all of
# them: LABS_SAMPLE.
judge_labs() {
    name=${1##*/}
    case $name in *.h) ;; *) echo "$LABS_SAMPLE"; return ;; esac
    names=$name
    for round in 1 2 3; do
        for h in labs/judge/*.h; do
            for n in $names; do grep -q "#include \"$n\"" "$h" && names="$names ${h##*/}"; done
        done
    done
    labs=$(for n in $names; do grep -l "#include \"$n\"" labs/judge/*.cu; done | sed 's|.*/||; s|\.cu$||' |
           grep -v -x -e fill -e sample -e libraries | sort -u | tr '\n' ' ')
    case " $labs " in *" ch1_map "*|"  ") echo "$LABS_SAMPLE" ;; *) echo "${labs% }" ;; esac
}
# The sites of every file, in order, with their ids: a hash of the file, the operator, the column, the
# line's text and how many such sites came before (the line may move; its id stays).
sites() {
    {
        for f in common/*.c; do awk -v lang=c -f tests/mutants_sites.awk "$f" | sed "s|^|$f$tab|"; done
        for f in common/*.h; do
            awk -v lang=c -f tests/mutants_sites.awk "$f" | awk -F'\t' '$3 == "tolerance_doubled"' | sed "s|^|$f$tab|"
        done
        for f in labs/judge/*.c labs/judge/*.h; do
            awk -v lang=c -f tests/mutants_sites.awk "$f" | sed "s|^|$f$tab|"
        done
        for f in labs/grade labs/steps/*.sh labs/rules.sh; do
            awk -v lang=sh -f tests/mutants_sites.awk "$f" | sed "s|^|$f$tab|"
        done
        for f in labs/elf.awk labs/sass.awk labs/findings.awk; do
            awk -v lang=awk -f tests/mutants_sites.awk "$f" | sed "s|^|$f$tab|"
        done
        awk -v lang=rules -f tests/mutants_sites.awk labs/rules.txt | sed "s|^|labs/rules.txt$tab|"
        awk -v lang=targets -f tests/mutants_sites.awk labs/targets.txt | sed "s|^|labs/targets.txt$tab|"
        for readme in $(sed -n '/^DOCS="/,/^"/p' tests/ledger.sh | grep -v '"') $(ls labs/*.cu); do
            awk -F'\t' -v readme="$readme" -f tests/mutants_prose.awk figures/data/sources.tsv "$readme" |
                sed "s|^|$readme$tab|"
        done
    } >"$work/sites.raw"
    cut -f1 "$work/sites.raw" | uniq | while read -r f; do
        echo "$f$tab$(cover_of "$f" | sed "s/ /$tab/")"
    done >"$work/covers"
    # FILE LINE COLUMN OPERATOR FROM TO [EXTRA] becomes ID FILE LINE COLUMN OPERATOR CLASS COVER FROM TO EXTRA
    GPU_LINES=$GPU_LINES awk -F'\t' -v OFS='\t' -v gpu_functions="$GPU_FUNCTIONS" -v sample="$LABS_SAMPLE" '
        BEGIN {
            for (i = 1; i < 256; i++) code[sprintf("%c", i)] = i
            n = split(gpu_functions, f, /[ \n]+/); for (i = 1; i <= n; i++) on_gpu[f[i]]
        }
        FILENAME ~ /covers$/ { class[$1] = $2; cover[$1] = $3; next }
        function text_of(file, n,    l, k) {  # line n of file
            if (!(file in read)) { read[file]; k = 0; while ((getline l < file) > 0) lines[file, ++k] = l; close(file) }
            return lines[file, n]
        }
        {
            key = $1 "|" $4 "|" $3 "|" $5 "|" $6 "|" text_of($1, $2)
            seen[key]++
            key = key "|" seen[key]
            h = 5381; h2 = 0
            for (i = 1; i <= length(key); i++) {
                c = code[substr(key, i, 1)]
                h = (h * 33 + c) % 4294967296; h2 = (h2 * 31 + c) % 65536
            }
            k = class[$1]; c = cover[$1]
            if ($1 ~ /^common\// && (($7 in on_gpu) || $4 == "tolerance_doubled")) { k = "both"; c = "unit;programs" }
            t = text_of($1, $2); sub(/^[ \t]+/, "", t)
            if (c == "grade;" && t ~ ENVIRON["GPU_LINES"]) { k = "both"; c = "grade;" sample }
            # (the ways labs/rules.txt runs a lab, which only a grade on a GPU reads: that lab)
            if ($1 == "labs/rules.txt" && t ~ /^[a-z0-9_]+ +(ranks|timed|gpus|steps|sanitize) /) {
                k = "both"; split(t, w, " "); c = c w[1]
            }
            print sprintf("%08x%04x", h, h2), $1, $2, $3, $4, k, c, $5, $6, $7
        }' "$work/covers" "$work/sites.raw"
}

# ==== Choosing ====
mkdir -p "$work" || exit 2
if [ -n "${MUTANTS_SITES:-}" ]; then cp "$MUTANTS_SITES" "$work/sites.tsv"; else sites >"$work/sites.tsv"; fi
if [ "${1:-}" = --list ]; then cat "$work/sites.tsv"; exit 0; fi
# (MUTANTS_QUICK=1: only the sites whose tests here are quick from a cold copy, for tests/mutants.t)
awk -F'\t' -v only="${MUTANTS_ONLY:-}" -v ids="${MUTANTS_IDS:-}" -v quick="${MUTANTS_QUICK:-}" '
    quick == 1 {
        stages = $7; sub(/;.*/, "", stages)
        if (stages == "" || stages !~ /^((unit|ledger|readers|targets)(\+|$))+$/) next
    }
    (only == "" || $2 ~ only) && (ids == "" || $1 ~ ids)' "$work/sites.tsv" >"$work/chosen.tsv"
# (MUTANTS_FROM=FILE, a record's results.tsv: only the sites it says were killed, by a test, or accepted;
# not one that timed out, which a faster machine might finish)
if [ -n "${MUTANTS_FROM:-}" ]; then
    [ -f "$MUTANTS_FROM" ] || { echo "mutants: MUTANTS_FROM=$MUTANTS_FROM: no such record" >&2; exit 2; }
    awk -F'\t' 'FILENAME == ARGV[1] { if ($11 == "killed" || $13 == "accepted") k[$1]; next }
        $1 in k' "$MUTANTS_FROM" "$work/chosen.tsv" >"$work/from.tsv" && mv "$work/from.tsv" "$work/chosen.tsv"
fi
total=$(wc -l <"$work/sites.tsv")
if [ -n "${MUTANTS_SAMPLE:-}" ]; then
    seed=${MUTANTS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
    case $MUTANTS_SAMPLE$seed in
        *[!0-9]*) echo "mutants: MUTANTS_SAMPLE and MUTANTS_SEED are whole numbers" >&2; exit 2 ;;
    esac
    echo "mutants: a sample of $MUTANTS_SAMPLE, seed $seed (MUTANTS_SEED=$seed replays it)"
    # Park and Miller's generator, exact in any awk's doubles: the same draw on every machine.
    awk -v n="$MUTANTS_SAMPLE" -v seed="$seed" '
        { line[NR] = $0 }
        END {
            x = seed % 2147483646 + 1
            for (i = NR; i > 1; i--) {
                x = (x * 16807) % 2147483647; j = x % i + 1; t = line[i]; line[i] = line[j]; line[j] = t
            }
            for (i = 1; i <= NR && i <= n; i++) print line[i]
        }' "$work/chosen.tsv" >"$work/sample.tsv" && mv "$work/sample.tsv" "$work/chosen.tsv"
fi
chosen=$(wc -l <"$work/chosen.tsv")
echo "mutants: $chosen of $total sites${MUTANTS_ONLY:+ (MUTANTS_ONLY=$MUTANTS_ONLY)}"
[ "$chosen" -gt 0 ] || { echo "mutants: no site matches" >&2; exit 2; }
gpu=no
nvidia-smi -L >/dev/null 2>&1 && gpu=yes

# ==== The copies, their tests, the mutants ====
jobs=${MUTANTS_JOBS:-1}
case $jobs in ''|*[!0-9]*|0) echo "mutants: MUTANTS_JOBS='$jobs'?" >&2; exit 2 ;; esac
started=$(date +%s) date=$(date -u '+%Y-%m-%d %H:%M UTC')
rm -f "$work"/results.* "$work"/worker.*.log
w=1
while [ "$w" -le "$jobs" ]; do
    awk -v j="$jobs" -v w="$w" '(NR - 1) % j == w - 1' "$work/chosen.tsv" >"$work/chosen.$w"
    [ -s "$work/chosen.$w" ] && GPU=$gpu sh tests/mutants_worker.sh "$work/copy.$w" "$work/chosen.$w" \
        "$work/results.$w" >"$work/worker.$w.log" 2>&1 &
    w=$((w + 1))
done
wait
seconds=$(($(date +%s) - started))
cat "$work"/results.[0-9]* 2>/dev/null >"$work/results.tsv"
if grep -q '^mutants: ' "$work"/worker.*.log; then grep -h '^mutants: ' "$work"/worker.*.log >&2; fi
[ "$(wc -l <"$work/results.tsv")" = "$chosen" ] ||
    { echo "mutants: $(wc -l <"$work/results.tsv") of $chosen mutants have a result ($work/worker.*.log)" >&2
      exit 2; }

# ==== The report ====
echo "$seconds$tab$gpu$tab$total$tab$date$tab$jobs" >"$work/run.tsv"  # (to make the report again)
sh tests/mutants_report.sh "$work/results.tsv" "$accepted" "$seconds" "$gpu" "$total" "$date" "$jobs" \
    >"$work/report.txt"
status=$?
# (what each copy's tests took before its mutants: a copy made afresh builds what its tests cache)
w=1
while [ -f "$work/worker.$w.log" ]; do
    sed -n "s/^baseline: \([^ ]*\) passes in \([0-9]*\)s$/copy $w: \1 \2 s/p" "$work/worker.$w.log"
    w=$((w + 1))
done | tr '\n' ';' | sed 's/;$//; s/;/; /g; s/^/baselines (the tests on each copy as it is): /' >>"$work/report.txt"
echo >>"$work/report.txt"
cat "$work/report.txt"
if [ -n "${MUTANTS_RECORD:-}" ] && [ -n "${MUTANTS_SAMPLE:-}${MUTANTS_SITES:-}" ]; then
    echo "mutants: a sample, or sites of MUTANTS_SITES, are not recorded (MUTANTS_RECORD)" >&2
elif [ -n "${MUTANTS_RECORD:-}" ]; then
    sh tests/mutants_record.sh "$MUTANTS_RECORD" "$work/results.tsv" "$accepted" "$work/sites.tsv" "$seconds" \
        "$gpu" "$date" "$jobs" "${MUTANTS_ONLY:-all}${MUTANTS_IDS:+ ($chosen sites by id)}" || status=2
fi
exit $status
