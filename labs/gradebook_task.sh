#!/bin/sh
# labs/gradebook_task.sh: one task of labs/gradebook's Slurm job array (labs/gradebook_slurm.sh submits it):
# the grades of one student (or of the course's solutions), as the one-machine book grades them, each
# row where labs/grade_row.sh writes it, in the task's folder of the shared BOOK/slurm/.
#   sbatch --array=0-N ... labs/gradebook_task.sh ROOT SHARED      (SLURM_ARRAY_TASK_ID: the task)
# SHARED/task.N/list: the grades, five lines each (KEY GPU STUDENT LAB FILE: labs/grade_row.sh's), GPU
# "all" for the GPU Slurm gave the task, "none" for a build-only grade; SHARED/book, columns and arch: the
# book's folder, its columns, ARCH. With a GPU, the task's files are compiled first, then graded one at a
# time, each against the solution timed beside it (no LAB_SOLUTION_MS: labs/grade's own way, on this GPU);
# without, all at once, as many as the CPUs Slurm gave it. SHARED/task.N/done marks the task's end.
set -u
root=$1 shared=$2
task=$shared/task.${SLURM_ARRAY_TASK_ID:?labs/gradebook_task.sh: a task of sbatch --array (labs/gradebook)}
here=$root/labs
echo "labs/gradebook: Slurm job ${SLURM_ARRAY_JOB_ID:-?}, task $SLURM_ARRAY_TASK_ID, on $(hostname)"
[ -f "$task/list" ] && [ -f "$here/grade_row.sh" ] ||
    { echo "labs/gradebook_task.sh: $task/list or $here/grade_row.sh is not here: are the course and BOOK" \
           "on a filesystem this node shares, at the same path?" >&2; exit 1; }
ARCH=$(cat "$shared/arch")
GRADEBOOK_BOOK=$(cat "$shared/book") GRADEBOOK_COLUMNS=$(cat "$shared/columns") GRADEBOOK_WORK=$task
GRADEBOOK_GPUS="" GRADEBOOK_TOTAL=$(awk 'END { print NR / 5 }' "$task/list") GRADEBOOK_START=$(date +%s)
export ARCH GRADEBOOK_BOOK GRADEBOOK_COLUMNS GRADEBOOK_WORK GRADEBOOK_GPUS GRADEBOOK_TOTAL GRADEBOOK_START
mkdir -p "$task/rows" "$task/errors" || exit 1
if [ "$(sed -n 2p "$task/list")" = all ]; then
    echo "compiling the task's files, then grading them on the GPU (CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-})"
    awk 'NR % 5 == 4 || NR % 5 == 0' "$task/list" | sh "$here/build_first.sh"
    at_once=1
else
    at_once=$(nproc 2>/dev/null || echo 1)
    echo "no GPU: each file built and checked against its lab's rules, $at_once at a time"
fi
xargs -r -d '\n' -n 5 -P "$at_once" --process-slot-var=GRADEBOOK_SLOT sh "$here/grade_row.sh" <"$task/list" &&
    : >"$task/done"
