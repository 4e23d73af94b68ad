#!/bin/sh
# tests/mutants_worker.sh COPY SITES RESULTS: one copy of tests/mutants.sh's run (started by it, in the
# course's root). COPY is made (or refreshed: the builds its tests cached, keyed on the copy's path, stay)
# from the working tree as it is, the built outputs with it; the tests that cover SITES run once on it
# as it is, and must pass; then each site is planted, its tests run, and the copy is put back as it was,
# file for file. A line of RESULTS a mutant: the site's fields, then STATUS SECONDS (killed, timed out,
# survived; gpu: not killed here, and only a GPU, which this machine lacks, runs the rest of its tests;
# not planted: the site's text is no longer there). GPU=yes: this machine has one.
set -u
root=$PWD
copy=${1:?} sites=$2 results=$3
base=$copy.base
tab=$(printf '\t')
say() { echo "mutants: $*" >&2; }

# ==== The copy ====
# The sources, everything git would see (tracked, and new files not ignored), and what make built from
# them: the programs, common/*.o, tests/unit_common, .build-flags, output/labs (the judges, the runner's
# objects); .tools (cuobjdump). Caches keyed on the copy's path stay: output/labs/build/LAB-*, and
# beside the copy COPY.rules (tests/rules.t's compiled files, RULES_JOBS) and COPY.listings (cuobjdump's).
mkdir -p "$copy/output"
find "$copy" -mindepth 1 -maxdepth 1 ! -name output -exec rm -rf {} +
find "$copy/output" -mindepth 1 -maxdepth 1 ! -name labs -exec rm -rf {} +
[ ! -d "$copy/output/labs" ] || find "$copy/output/labs" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
{ git ls-files -z --cached --others --exclude-standard 2>/dev/null ||
      find . -path ./.git -prune -o -path ./output -prune -o ! -type d -print0; } |
    tar -C "$root" --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$copy" -xf - ||
    { say "cannot copy the sources into $copy"; exit 2; }
for built in $(git ls-files --others --ignored --exclude-standard --directory 2>/dev/null | grep -v '^output/'); do
    [ -e "$built" ] && tar -C "$root" -cf - "${built%/}" | tar -C "$copy" -xf -
done
[ ! -d output/labs ] || { mkdir -p "$copy/output/labs" &&
    tar -C "$root/output/labs" --exclude=./build -cf - . | tar -C "$copy/output/labs" -xf -; }
[ ! -d output/labs/build/.rules ] || { mkdir -p "$copy/output/labs/build" &&
    tar -C "$root/output/labs/build" -cf - .rules | tar -C "$copy/output/labs/build" -xf -; }
# cuobjdump's listings of an object, kept by the object's checksum and the arguments: rules.sh's reading
# of the machine code is what a mutant changes, not the listing (labs/rules.sh finds nvdisasm beside it).
real_cuobjdump=$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)
bin=$copy.bin
mkdir -p "$bin" "$copy.listings"
if [ -x "$real_cuobjdump" ]; then
    ln -sf "$(dirname "$real_cuobjdump")/nvdisasm" "$bin/nvdisasm"
    cat >"$bin/cuobjdump" <<EOF
#!/bin/sh
# (tests/mutants_worker.sh) $real_cuobjdump, its listings kept in $copy.listings
key=\$({ printf '%s\n' "\$@"; for a; do [ -f "\$a" ] && sha256sum <"\$a"; done; } | sha256sum | cut -c1-32)
kept=$copy.listings/\$key
if [ ! -f "\$kept.status" ]; then
    "$real_cuobjdump" "\$@" >"\$kept.out.\$\$" 2>"\$kept.err.\$\$"; echo \$? >"\$kept.status.\$\$"
    mv "\$kept.out.\$\$" "\$kept.out"; mv "\$kept.err.\$\$" "\$kept.err"; mv "\$kept.status.\$\$" "\$kept.status"
fi
cat "\$kept.out"; cat "\$kept.err" >&2; exit "\$(cat "\$kept.status")"
EOF
    chmod +x "$bin/cuobjdump"
fi

# ==== The tests that cover a file ====
# A site's cover is "STAGES;GPU": the tests run here, one after another until one fails (STAGES, joined
# by +), then, where they all pass, those only a GPU can run (GPU: a list of labs for tests/labs.t's
# LAB_SUBSET, or programs: tests/gpu.t; on a machine without a GPU the mutant is "gpu", not run).
# stage_command STAGE: the command, run in the copy. unit: common/'s unit tests (make rebuilds only what
# the change touched); ledger: tests/ledger.sh, the check tests/ledger.t runs first; readers:
# tests/rules.t without the compiled files (its readers of listings, rules.sh's command line); rules:
# tests/rules.t, its compiled files kept (RULES_JOBS); grade: tests/grade_first.t and tests/grade.t;
# lock: tests/gpu_lock.t (labs/steps/run.sh's gpu_lock, three shells taking it as grades would); sandbox:
# tests/sandbox.t (run.sh's compiler sandbox, what it shows and never shows); clock,
# channel: the judge's unit tests (tests/clock.t, tests/channel.t); findings: tests/findings.t (labs/findings.awk
# on reports in the tools' words); counters: tests/counters.t (step 4 with a made-up ncu); random:
# tests/random.t (random.h's ranges);
# targets: tests/labs.t's
# check of the hand-out targets, its part from "# Hand-out targets by" to "# LAB_SUBSET" (the rest of
# tests/labs.t grades every file: minutes; a stage without a test fails, the markers gone).
stage_command() {
    case $1 in
        unit) echo 'make -s --no-print-directory tests/unit_common && ./tests/unit_common' ;;
        ledger) echo 'sh tests/ledger.sh' ;;
        readers) echo 'LAB_CUOBJDUMP= sh tests/rules.t' ;;
        rules) echo "RULES_JOBS='$copy.rules' sh tests/rules.t" ;;
        grade) echo 'sh tests/grade_first.t && sh tests/grade.t' ;;
        lock) echo 'sh tests/gpu_lock.t' ;;
        sandbox) echo 'sh tests/sandbox.t' ;;
        findings) echo 'sh tests/findings.t' ;;
        counters) echo 'sh tests/counters.t' ;;
        random) echo 'make -s --no-print-directory output/labs/unit_random && ./output/labs/unit_random' ;;
        clock) echo 'make -s --no-print-directory output/labs/unit_clock && ./output/labs/unit_clock' ;;
        channel) echo 'make -s --no-print-directory output/labs/unit_channel && ./output/labs/unit_channel' ;;
        targets) echo 'LABS=$(make -s --no-print-directory lab-list) && . tests/tap.sh && . labs/csv.sh &&
                 tmp=$(mktemp -d) && trap "rm -rf \"\$tmp\"" EXIT && [ -d "$tmp" ] &&
                 eval "$(sed -n "/^# Hand-out targets by/,/^# LAB_SUBSET/p" tests/labs.t)" && [ $count -gt 0 ] &&
                 done_testing' ;;
        programs) echo 'make -s --no-print-directory test TESTS="tests/gpu.t tests/cli.t"' ;;
        *) echo "make -s --no-print-directory test TESTS=tests/labs.t LAB_SUBSET='$1'" ;;
    esac
}
# run_stage STAGE LIMIT LOG: 0 when the stage's tests pass, 1 when one fails (it is stopped at its first
# "not ok": the mutant is killed), 124 when they ran past LIMIT seconds.
# A test stopped at its first "not ok" leaves its temporary files behind: TMPDIR is a folder of this
# worker's, emptied after each run (short, in /tmp: a judge's socket lives there, 108 bytes of path at most),
# open to all as /tmp is (tests/unit_common runs a child as nobody in a folder of its own there).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutants.XXXXXX") && chmod 1777 "$scratch" ||
    { say "cannot make a temporary folder"; exit 2; }
trap 'rm -rf "$scratch"' EXIT
run_stage() {
    cmd=$(stage_command "$1")
    (cd "$copy" && { [ ! -x "$bin/cuobjdump" ] || export LAB_CUOBJDUMP="${LAB_CUOBJDUMP-$bin/cuobjdump}"; } &&
        export TMPDIR="$scratch" && timeout -k 10 "$2" sh -c "$cmd; echo \"# exit \$?\"" </dev/null 2>&1) |
        awk -v out="$3" '{ print >out } /^not ok/ && !/# TODO/ { bad = 1; exit } /^# exit [0-9]+$/ { code = $3 }
                         END { exit bad ? 1 : code == "" ? 124 : code != 0 }'
    stage_status=$?
    find "$scratch" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null
    return $stage_status
}
# The stages a site's cover runs here: its STAGES, and its GPU part where there is a GPU.
stages_of() {
    printf '%s\n' "${1%%;*}" | tr '+' '\n'
    [ "$GPU" != yes ] || [ -z "${1#*;}" ] || printf '%s\n' "${1#*;}"
}

# ==== The tests on the copy as it is ====
flags=$copy.flags
cp -p "$copy/.build-flags" "$flags" 2>/dev/null || : >"$flags"
keep_flags() {  # (a test that asks make with another nvcc, tests/rules.t's wrapper, rewrites .build-flags)
    [ ! -s "$flags" ] || cmp -s "$flags" "$copy/.build-flags" || cp -p "$flags" "$copy/.build-flags"
}
cut -f7 "$sites" | sort -u | while IFS= read -r cover; do stages_of "$cover"; done | grep . | sort -u >"$copy.stages"
: >"$copy.limits"
while IFS= read -r stage; do
    start=$(date +%s)
    run_stage "$stage" 3600 "$copy.baseline.log"
    status=$?
    keep_flags
    took=$(($(date +%s) - start))
    if [ $status != 0 ]; then
        say "the tests of $stage ($(stage_command "$stage")) fail on the copy as it is (status $status):" \
            "no mutant can be judged by them. Their output ends:"
        tail -n 15 "$copy.baseline.log" | sed 's/^/mutants:   /' >&2
        exit 2
    fi
    # A mutant's limit: three times the run as it is, and a minute more.
    printf '%s\t%s\n' "$stage" $((3 * took + 60)) >>"$copy.limits"
    echo "baseline: $stage passes in ${took}s"
done <"$copy.stages"
# The copy as its tests left it, kept: what a mutant's run changes is put back from here.
rm -rf "$base" && cp -a "$copy" "$base" || { say "cannot keep $base"; exit 2; }
(cd "$base" && find . ! -type d | sort) >"$copy.files"
stamp=$copy.stamp
restore() {
    (cd "$copy" && find . -newer "$stamp" ! -type d) | while IFS= read -r f; do
        rm -f "$copy/$f"
        [ ! -e "$base/$f" ] && [ ! -L "$base/$f" ] || cp -pP "$base/$f" "$copy/$f"
    done
    (cd "$copy" && find . ! -type d | sort) | comm -13 - "$copy.files" | while IFS= read -r f; do
        mkdir -p "$copy/$(dirname "$f")" && cp -pP "$base/$f" "$copy/$f"
    done
    (cd "$copy" && find . -mindepth 1 -type d -newer "$stamp") | while IFS= read -r d; do
        [ -d "$base/$d" ] || rm -rf "${copy:?}/$d"
    done
}

# ==== The mutants ====
# plant FILE LINE COLUMN OPERATOR FROM TO [ROW:K]: FROM, at COLUMN of FILE's LINE, written TO (its line
# deleted: FROM is the whole line); a digit of a README changed in the ledger's row ROW too, at place K of
# its number and where the number stands in its context. Fails, changing nothing, where FROM is not there.
plant() {
    f=$copy/$1
    [ -f "$f" ] && FROM=$5 TO=$6 awk -v n="$2" -v c="$3" -v op="$4" '
        NR == n && op == "line_deleted" { if ($0 != ENVIRON["FROM"]) bad = 1; else next }
        NR == n && op != "line_deleted" {
            if (substr($0, c, length(ENVIRON["FROM"])) != ENVIRON["FROM"]) bad = 1
            else $0 = substr($0, 1, c - 1) ENVIRON["TO"] substr($0, c + length(ENVIRON["FROM"]))
        }
        { print }
        END { exit bad || NR < n }' "$f" >"$f.mutant" && cat "$f.mutant" >"$f" && rm -f "$f.mutant" || return 1
    [ "$4" = digit_changed ] || return 0
    ledger=$copy/figures/data/sources.tsv
    TO=$6 awk -F'\t' -v OFS='\t' -v row="${7%%:*}" -v k="${7#*:}" '
        NR == row {
            new = substr($2, 1, k - 1) ENVIRON["TO"] substr($2, k + 1)
            i = index($3, $2); $3 = substr($3, 1, i - 1) new substr($3, i + length($2)); $2 = new
        }
        { print }' "$ledger" >"$ledger.mutant" && cat "$ledger.mutant" >"$ledger" && rm -f "$ledger.mutant"
}
: >"$results"
while IFS="$tab" read -r id file line col op class cover from to extra; do
    site="$id$tab$file$tab$line$tab$col$tab$op$tab$class$tab$cover$tab$from$tab$to$tab$extra"
    start=$(date +%s)
    touch "$stamp"
    sleep 0.01 2>/dev/null || sleep 1  # (a file written now is newer than the stamp)
    status=gpu
    if [ -z "$(stages_of "$cover")" ]; then
        :  # (only a GPU can tell, and there is none)
    elif plant "$file" "$line" "$col" "$op" "$from" "$to" "$extra" </dev/null; then
        status=survived
        for stage in $(stages_of "$cover" | tr ' ' '#'); do
            stage=$(echo "$stage" | tr '#' ' ')
            limit=$(awk -F'\t' -v c="$stage" '$1 == c { print $2 }' "$copy.limits")
            run_stage "$stage" "${limit:-600}" "$copy.mutant.log"
            case $? in
                0) continue ;;
                124) status="timed out" ;;
                *) status=killed ;;
            esac
            break
        done
        # (not killed here, and a GPU part that cannot run here: gpu)
        [ "$status" != survived ] || [ "$GPU" = yes ] || [ -z "${cover#*;}" ] || status=gpu
        [ "$status" != survived ] || cp "$copy.mutant.log" "$copy.survived.$id.log"
    else
        status="not planted"
    fi
    restore
    keep_flags
    printf '%s\t%s\t%s\n' "$site" "$status" $(($(date +%s) - start)) >>"$results"
    echo "$id $file:$line:$col $op: $status"
done <"$sites"
