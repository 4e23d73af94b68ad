# labs/gradebook_slurm.sh: labs/gradebook's grades as a Slurm job array (sourced by labs/gradebook where
# SLURM is set; make gradebook SUBMISSIONS=dir SLURM=PARTITION). One array task a student, each grading that
# student's files as the one-machine book does (labs/gradebook_task.sh), task 0 the course's solutions
# (where the course has them); their rows gathered where the one-machine grades leave theirs, for
# labs/gradebook's one writer.
#   SLURM=PARTITION         the partition (SLURM=1: the cluster's default); --gres=gpu:1 a task where sinfo
#                           says its nodes have GPUs, else every file built only, as without a GPU
#   SLURM_MINUTES=60        each task's time limit, and how long the book waits for the array from its
#                           submission: past it, what is left is cancelled, and its rows say so
#   SLURM_OPTIONS="..."     more of sbatch's options (--account=..., --qos=..., --gres=gpu:h100:1), split at
#                           spaces; they come after the partition, the GPU and the time, and may change them
# The course, SUBMISSIONS and BOOK are on a filesystem the nodes share, at the same path; the nodes have
# the toolkit as this machine has it (the same nvcc path), and bubblewrap. The judges are built here, for
# ARCH (unless given, every architecture a machine without a GPU builds for: make lab-arch GPU_SM=), which
# the tasks are given too: a node's make finds them built, whatever its GPU. BOOK/slurm/ holds the tasks'
# lists, rows and logs (task.N.out).

# slurm_setup: Slurm's commands, the partition, its GPUs, ARCH (exported); exit 2 where something is amiss.
slurm_setup() {
    for tool in sbatch squeue scontrol scancel sinfo; do
        command -v $tool >/dev/null 2>&1 ||
            { echo "labs/gradebook: SLURM=$SLURM: no $tool here (Slurm's commands, where the book is made)" >&2
              exit 2; }
    done
    slurm_minutes=${SLURM_MINUTES:-60}
    case $slurm_minutes in ''|*[!0-9]*|0)
        echo "labs/gradebook: SLURM_MINUTES='$slurm_minutes': a whole number of minutes, above 0" >&2; exit 2 ;;
    esac
    slurm_partition=$SLURM
    if [ "$SLURM" = 1 ]; then
        slurm_partition=$(timeout 60 sinfo -h -o %P 2>/dev/null | sed -n 's/\*$//p' | head -n 1)
        [ -n "$slurm_partition" ] ||
            { echo "labs/gradebook: SLURM=1: Slurm names no default partition (sinfo): name one, SLURM=PARTITION" >&2
              exit 2; }
    fi
    timeout 60 scontrol show partition "$slurm_partition" >/dev/null 2>&1 ||
        { echo "labs/gradebook: SLURM=$SLURM: Slurm has no partition $slurm_partition, or did not answer" \
               "(sinfo lists them)" >&2; exit 2; }
    # A GPU a task where the partition's nodes have GPUs (sinfo's generic resources, "gpu:h100:8"), else none:
    # every file built only, each row as a machine without a GPU writes it.
    if timeout 60 sinfo -h -p "$slurm_partition" -o %G | grep -q 'gpu'; then slurm_mode=all; else slurm_mode=none; fi
    ARCH=${ARCH:-$(make -s -C "$root" --no-print-directory lab-arch GPU_SM=)}
    export ARCH
}

# slurm_grade: the class's grades ($work/students, five lines a grade: KEY GPU STUDENT LAB FILE, keys in the
# book's order) in a job array, one task a student; then each grade's row and compiler error in $work/rows
# and $work/errors, a row that says why for each grade a task did not leave.
slurm_grade() {
    shared=$book/slurm
    rm -rf "$shared" && mkdir -p "$shared" && printf '%s\n' "$book" >"$shared/book" &&
        printf '%s\n' "$columns" >"$shared/columns" && printf '%s\n' "$ARCH" >"$shared/arch" ||
        { echo "labs/gradebook: cannot write $shared" >&2; exit 1; }
    # The tasks: the solutions (keys a...) in one, then a task a student, in the book's order.
    final=-1 group=""
    while IFS= read -r key && IFS= read -r mode && IFS= read -r student && IFS= read -r lab && IFS= read -r file
    do
        this=$(printf '%.1s' "$key")$student
        [ "$this" = "$group" ] || { final=$((final + 1)) group=$this; mkdir "$shared/task.$final"; }
        printf '%s\n' "$key" "$slurm_mode" "$student" "$lab" "$file" >>"$shared/task.$final/list"
    done <"$work/students"
    if [ "$slurm_mode" = all ]; then slurm_gres=--gres=gpu:1 what="a GPU each"
    else slurm_gres="" what="no GPU in the partition: each file built and checked against its lab's rules"; fi
    # shellcheck disable=SC2086  # (SLURM_OPTIONS: words on purpose)
    job=$(timeout 120 sbatch --partition="$slurm_partition" $slurm_gres --time="$slurm_minutes" --job-name=gradebook \
              ${SLURM_OPTIONS:-} --parsable --array="0-$final" --output="$shared/task.%a.out" --export=ALL \
              "$here/gradebook_task.sh" "$root" "$shared" 2>"$shared/sbatch.err")
    job=${job%%;*}
    case $job in ''|*[!0-9]*)
        cat "$shared/sbatch.err" >&2; echo "labs/gradebook: sbatch did not take the job array" >&2; exit 2 ;;
    esac
    trap 'timeout 60 scancel "$job" 2>/dev/null; exit 130' INT TERM
    echo "submitted Slurm job $job to partition $slurm_partition: $((final + 1)) tasks, $what;" \
         "waiting, $slurm_minutes min at most"
    slurm_wait
    # Each grade's row, or one that says why there is none: never a missing row.
    t=0 failed=0
    while [ $t -le $final ]; do
        why="" state=""
        [ -f "$shared/task.$t/done" ] || state=$(slurm_state $t)
        while IFS= read -r key && IFS= read -r mode && IFS= read -r student && IFS= read -r lab &&
              IFS= read -r file; do
            if [ -f "$shared/task.$t/rows/$key" ]; then
                cp "$shared/task.$t/rows/$key" "$work/rows/$key"
                [ ! -f "$shared/task.$t/errors/$key" ] || cp "$shared/task.$t/errors/$key" "$work/errors/$key"
                continue
            fi
            [ -n "$why" ] || why=$(slurm_why $t "$state")
            # (the report's name is labs/grade_row.sh's: what the task would have written, replaced)
            report=$book/$(printf '%s' "$student" | tr -c 'A-Za-z0-9._-' '_').$lab.txt
            printf '== Lab %s: %s\nlabs/gradebook: not graded: Slurm task %s of job %s %s; its log: %s\n' \
                "$lab" "$file" $t "$job" "$why" "$shared/task.$t.out" >"$report"
            { csv_row "$report" "$columns" student="$student" lab="$lab" exit=4 seconds=- \
                  verdict="not graded (Slurm task $t $why)" sha256="$(sha256sum <"$file" | cut -c1-64)"
              printf '%s\n' "$report"; } >"$work/rows/$key"
        done <"$shared/task.$t/list"
        [ -z "$why" ] || { echo "labs/gradebook: Slurm task $t $why: its rows say so; its log: $shared/task.$t.out" >&2
                           failed=$((failed + 1)); }
        t=$((t + 1))
    done
    [ $failed -le $final ] || echo "labs/gradebook: no task left its rows: are the course, SUBMISSIONS" \
        "and BOOK on a filesystem the nodes share, at the same path?" >&2
    [ "$slurm_mode" = none ] || gpus=1  # (the book's device line: graded on GPUs, the reports name them)
}

# slurm_wait: until no task of the job is left in squeue, a line each time the count of grades done or of
# tasks running changes; past SLURM_MINUTES, the job cancelled (slurm_late says so to slurm_why).
slurm_wait() {
    start=$(date +%s) said="" fails=0 slurm_late=""
    while :; do
        if ! queue=$(timeout 60 squeue -h -r -u "$(id -un)" -o '%F %T' 2>"$shared/squeue.err"); then
            fails=$((fails + 1))
            [ $fails -lt 5 ] || { echo "labs/gradebook: squeue failed 5 times: $(head -n 1 "$shared/squeue.err");" \
                                       "job $job cancelled" >&2; timeout 60 scancel "$job"; slurm_late=squeue; break; }
            sleep 5; continue
        fi
        fails=0
        states=$(printf '%s\n' "$queue" | awk -v job="$job" '$1 == job { n[$2]++ }
            END { printf "%d running, %d pending", n["RUNNING"] + n["COMPLETING"], n["PENDING"] }')
        case $states in "0 running, 0 pending") break ;; esac
        graded=$(find "$shared" -path '*/rows/*' -name '[!.]*' -type f | wc -l)
        [ "$graded $states" = "$said" ] ||
            { echo "  $graded of $GRADEBOOK_TOTAL grades done; tasks: $states"; said="$graded $states"; }
        elapsed=$(( $(date +%s) - start ))
        if [ $elapsed -ge $((slurm_minutes * 60)) ]; then
            echo "labs/gradebook: job $job not done after SLURM_MINUTES=$slurm_minutes min: cancelled" >&2
            timeout 60 scancel "$job"; slurm_late=time
            sleep 5; break
        fi
        if [ $elapsed -lt 60 ]; then sleep 1; else sleep 10; fi
    done
    graded=$(find "$shared" -path '*/rows/*' -name '[!.]*' -type f | wc -l)
    echo "  $graded of $GRADEBOOK_TOTAL grades done; the job array has ended"
    trap - INT TERM
}

# slurm_state T: how task T ended in Slurm's words, "STATE (REASON)", where it left no mark of its end;
# empty where Slurm no longer knows it. One that Slurm says completed has its mark looked for again, for up
# to 30 s (a shared filesystem may show another machine's files late).
slurm_state() {
    line=$(timeout 60 scontrol -o show job "${job}_$1" 2>/dev/null)
    state=$(printf '%s\n' "$line" | sed -n 's/.* JobState=\([^ ]*\).*/\1/p')
    reason=$(printf '%s\n' "$line" | sed -n 's/.* Reason=\([^ ]*\).*/\1/p' | grep -vx None)
    if [ "$state" = COMPLETED ]; then
        waited=0
        until [ -f "$shared/task.$1/done" ] || [ $waited -ge 30 ]; do
            ls "$shared/task.$1" >/dev/null 2>&1; sleep 1; waited=$((waited + 1))
        done
    fi
    [ -f "$shared/task.$1/done" ] || echo "$state${reason:+ ($reason)}"
}
# slurm_why T STATE: why task T left a grade without its row (STATE: slurm_state's).
slurm_why() {
    if [ -f "$shared/task.$1/done" ]; then
        echo "ended without this grade's row (a full disk?)"
    elif [ "$slurm_late" = time ]; then
        echo "did not finish within SLURM_MINUTES=$slurm_minutes min (cancelled)"
    elif [ "$slurm_late" = squeue ]; then
        echo "was cancelled: squeue failed"
    elif [ -z "$2" ]; then
        echo "left no rows and is gone from Slurm (cancelled before it ran?)"
    else
        echo "ended $2 before all its rows were written"
    fi
}
