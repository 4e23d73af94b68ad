#!/bin/sh
# labs/classroom.sh: GitHub Classroom's autograding workflow, as Classroom runs it today: the job checks
# the student's repository out on RUNS_ON, builds the course's side of the labs once, then grades each
# lab's labs/LAB.cu in a step of classroom-resources/autograding-command-grader@v1 (the grade's exit
# status is the test's result: 0 is PASS and gets the points, anything else none), and a step of
# classroom-resources/autograding-grading-reporter@v1 adds them up for Classroom. make classroom writes
# it to .github/workflows/classroom.yml; tests/classroom.t checks that it is up to date and that it works.
#   sh labs/classroom.sh RUNS_ON LAB...      RUNS_ON: a YAML value, [self-hosted, gpu] or one label
# What the two actions take (their action.yml and src/main.js): the grader's test-name, command, timeout
# (minutes) and max-score, and its output "result"; the reporter's input runners, the grader steps' ids
# separated by commas, and for each id an environment variable named after it in capitals, ID_RESULTS,
# holding that step's result. The rest is the shape of the workflows Classroom writes itself: run on a
# push and on Classroom's repository_dispatch, not on the bot's own commits, with checks: write.
set -eu
runs_on=${1:?usage: sh labs/classroom.sh RUNS_ON LAB...}
shift
[ $# -gt 0 ] || { echo "usage: sh labs/classroom.sh RUNS_ON LAB..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
for lab in "$@"; do  # (a lab is a name with its runner stub, as labs/grade takes it)
    case $lab in ''|*[!a-z0-9_]*) echo "labs/classroom.sh: '$lab' is not a lab's name" >&2; exit 2 ;; esac
    [ -f "$root/labs/runner/$lab.cu" ] || { echo "labs/classroom.sh: there is no lab $lab" >&2; exit 2; }
done
. "$root/labs/csv.sh"
# Each lab's grade took s seconds in the committed runs of the solutions (the H200 whole, and held to 14
# SMs: the larger of the two); its step may take four times that and 4 minutes more, rounded up to whole
# minutes: the GPU may be slower than the H200, and the grade compiles the student's file first (labs/grade
# stops the compiler at 120 s), which the measured runs had compiled already. A lab not measured yet gets
# the grader's default, 10 minutes.
data=$root/figures/data/labs
measured=$(for run in solutions solutions_gtx1650; do
               csv_select "$data/$run.csv" lab seconds || exit; done) || exit
seconds_of() { echo "$measured" | awk -F, -v lab="$1" '$1 == lab && $2 > s { s = $2 } END { print s + 0 }'; }
minutes_for() { awk -v s="$1" 'BEGIN { m = (4 * s + 240) / 60; print (m == int(m)) ? m : int(m) + 1 }'; }

cat <<EOF
# GitHub Classroom's autograding: one test a lab, each the exit status of sh labs/grade (labs/README.md,
# "GitHub Classroom"). Written by make classroom (labs/classroom.sh) from the Makefile's LABS: remake it,
# do not edit it. Runs on a self-hosted runner with an NVIDIA GPU: make runner-check says what it lacks.
name: Autograding Tests
on: [push, repository_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: $runs_on
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v5
      # Once, not in every test: each test would have it build alone within its own time limit.
      - name: The course's side of the labs (judges and runners)
        run: make -s -j"\$(nproc)" lab-programs
        timeout-minutes: 30
EOF
for lab in "$@"; do
    s=$(seconds_of "$lab")
    if [ "$s" -gt 0 ]; then
        minutes=$(minutes_for "$s") why="graded in $s s (figures/data/labs/solutions*.csv)"
    else
        minutes=10 why="not measured yet: the grader's default"
    fi
    cat <<EOF
      # $lab: $why: $minutes minutes
      - name: $lab
        id: $lab
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: $lab
          command: sh labs/grade $lab labs/$lab.cu
          timeout: $minutes
          max-score: 1
EOF
done
cat <<EOF
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
EOF
for lab in "$@"; do
    printf '          %s_RESULTS: "${{ steps.%s.outputs.result }}"\n' "$(echo "$lab" | tr a-z A-Z)" "$lab"
done
printf '        with:\n          runners: %s\n' "$(echo "$@" | tr ' ' ',')"
