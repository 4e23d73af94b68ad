#!/bin/sh
# labs/gradebook on Slurm (SLURM=PARTITION, labs/gradebook_slurm.sh): a class of three (a solution, the
# hand-out, a file that does not compile), graded as a job array on a one-node Slurm that this test starts
# (Debian's slurm-wlm and munge, installed by .ci/run, never here: munged with a key of its own, slurmctld
# and slurmd from a slurm.conf naming this machine, all in a folder of the test's, stopped at its end). Its
# partition has no GPU: the book is built only, and must be the one-machine build-only book of the same
# class, row for row, its table and the compiler's error the same. Then a task cancelled before it ran: its
# row says so, the others are as before. Skipped, naming why, where Slurm is not installed or will not start.
. tests/tap.sh
PATH=$PATH:/usr/sbin:/sbin  # (the daemons)
# (every grade reads its file's machine code: without cuobjdump labs/grade stops, exit 2, as grade.t says)
if [ ! -x "$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)" ]; then
    skip_all "no cuobjdump: labs/grade cannot read a file's machine code (sh tests/install_tools.sh fetches it)"
fi
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v $tool >/dev/null 2>&1 ||
        skip_all "no Slurm here: $tool missing (apt-get install slurm-wlm munge; .ci/run does)"
done
tmp=$(mktemp -d)
[ -n "$tmp" ] && [ -d "$tmp" ] || { echo "Bail out! mktemp -d failed"; exit 1; }
me=$(id -un)
st=$tmp/slurm  # the cluster's key, configuration, state and logs
# The daemons, stopped by their pid files' ids (each waited for: gone, or a zombie that its parent, init
# here, has not yet reaped), then the folder.
alive() { kill -0 "$1" 2>/dev/null && [ "$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
stop() {
    # (jobs left by a run cut short: this test's cluster's, never another's)
    ! alive "$(cat "$st/slurmctld.pid" 2>/dev/null)" ||
        SLURM_CONF=$st/slurm.conf timeout 15 scancel -u "$me" 2>/dev/null
    for pid_file in "$st/slurmd.pid" "$st/slurmctld.pid" "$st/munged.pid"; do
        pid=$(cat "$pid_file" 2>/dev/null) && [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null
        n=0; while alive "$pid" && [ $n -lt 50 ]; do sleep 0.2; n=$((n + 1)); done
    done
    rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM
mkdir -p "$st/ctld" "$st/spool" && chmod 700 "$st"
head -c 1024 /dev/urandom >"$st/munge.key" && chmod 400 "$st/munge.key"
host=$(uname -n | cut -d. -f1)
port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
cpus=$(nproc)
[ "$cpus" -ge 4 ] || cpus=4  # (every task of the class at once, as the one-machine book's grades run side by side)
cat >"$st/slurm.conf" <<EOF
ClusterName=gradebook
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$me
SlurmdUser=$me
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$st/munge.socket
CredType=cred/munge
StateSaveLocation=$st/ctld
SlurmdSpoolDir=$st/spool
SlurmctldPidFile=$st/slurmctld.pid
SlurmdPidFile=$st/slurmd.pid
SlurmctldLogFile=$st/slurmctld.log
SlurmdLogFile=$st/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=class-node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=class Nodes=class-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$st/slurm.conf"
started=$(date +%s)
munged --force --key-file="$st/munge.key" --socket="$st/munge.socket" --pid-file="$st/munged.pid" \
    --log-file="$st/munged.log" --seed-file="$st/munged.seed" 2>"$st/start.log" &&
    slurmctld -f "$st/slurm.conf" 2>>"$st/start.log" && slurmd -f "$st/slurm.conf" -N class-node 2>>"$st/start.log"
# Up when its node is idle, within 30 s while its daemons live (each question within 10 s: a Slurm that
# cannot reach itself retries); else skipped, naming the daemons' first fatal error, or first error.
node() { timeout 10 sinfo -h -p class -o %t 2>/dev/null; }
daemons() {  # none of the two has ended (one whose pid file is yet to be written has not)
    for d in slurmctld slurmd; do [ ! -s "$st/$d.pid" ] || alive "$(cat "$st/$d.pid")" || return 1; done
}
until [ "$(node)" = idle ] || ! daemons || [ $(($(date +%s) - started)) -ge 30 ]; do sleep 0.5; done
if ! daemons || [ "$(node)" != idle ]; then
    logs=$(cat "$st/start.log" "$st/slurmctld.log" "$st/slurmd.log" 2>/dev/null | sed 's/^\[[^]]*\] //')
    why=$(printf '%s\n' "$logs" | grep -i -m 1 'fatal' || printf '%s\n' "$logs" | grep -i -m 1 'error')
    skip_all "a one-node Slurm did not start here (${why:-its node never idle}: slurm-wlm's daemons as $me)"
fi
course=$([ -d labs/solutions ] && echo yes)
# The architectures the course is built for here: the tasks' make must find the judges built, not rebuild them.
ARCH=$(make -s --no-print-directory lab-arch)
export ARCH

# The class of three, as tests/gradebook.t builds it; graded on Slurm first (the tasks compile the files), then
# on this machine as one without a GPU (CUDA_VISIBLE_DEVICES empty).
mkdir -p "$tmp/three/ada" "$tmp/three/bo" "$tmp/three/cy"
cp "labs/${course:+solutions/}ch1_map.cu" "$tmp/three/ada/ch1_map.cu" && cp labs/ch1_map.cu "$tmp/three/bo/"
{ cat labs/ch1_map.cu; echo "int broken = ;"; } >"$tmp/three/cy/ch1_map.cu"
line=$(wc -l <"$tmp/three/cy/ch1_map.cu")
t0=$(date +%s)
SLURM=1 sh labs/gradebook "$tmp/three" "$tmp/slurmbook" >"$tmp/slurm.out" 2>&1; code=$?
t1=$(date +%s)
CUDA_VISIBLE_DEVICES= sh labs/gradebook "$tmp/three" "$tmp/onebook" >"$tmp/one.out" 2>&1; one_code=$?
t2=$(date +%s)
# Every column but the seed and the seconds, which no two grades share.
rows() { csv_select "$1" student lab verdict exit correct sanitizer time_ms percent_of_solution \
             percent_of_limit limit sha256 2>&1; }
. labs/csv.sh
slurm_rows=$(rows "$tmp/slurmbook.csv")
one_rows=$(rows "$tmp/onebook.csv")
students=$(csv_select "$tmp/slurmbook.csv" student verdict 2>&1 | tr '\n' ' ')
want="ada,built; not run (no GPU here) bo,built; not run (no GPU here) cy,FAIL (does not compile) "
[ -z "$course" ] || want="(solution),built; not run (no GPU here) $want"
[ $code = 77 ] && [ $one_code = 77 ] && [ "$slurm_rows" = "$one_rows" ] && [ "$students" = "$want" ] &&
    grep -q '^submitted Slurm job [0-9]* to partition class: [0-9] tasks, no GPU in the partition' "$tmp/slurm.out"
ok $? "SLURM=1: the job array's book has the one-machine build-only book's rows, exit 77" \
   "exit $code (one machine: $one_code); Slurm's rows: $slurm_rows; one machine's: $one_rows; want: $want;
$(tail -n 8 "$tmp/slurm.out")"
# The table the same, the compiler's first error named with its line (each book's own report, under it).
error="cy/ch1_map.cu($line): error"
sed "s|$tmp/slurmbook/|BOOK/|" "$tmp/slurmbook.md" >"$tmp/slurm.md"
sed "s|$tmp/onebook/|BOOK/|" "$tmp/onebook.md" >"$tmp/one.md"
cmp -s "$tmp/slurm.md" "$tmp/one.md" && grep -q -F -- "- cy, \`ch1_map\`: \`$error" "$tmp/slurm.md" &&
    grep -q -F "$error" "$tmp/slurmbook/cy.ch1_map.txt" && grep -q -F '| cy | does not compile | 0 |' "$tmp/slurm.md" &&
    { ! have_gnuplot || [ -s "$tmp/slurmbook.png" ]; }
ok $? "SLURM=1: the same table, the compile error named with its line, the figure where gnuplot is" \
   "$(diff "$tmp/slurm.md" "$tmp/one.md" 2>&1 | head -n 12)"

# A task cancelled before it ran (the array held, SLURM_OPTIONS=--hold, one task cancelled, the rest
# released): its student's row says so (not graded, exit 4), and the book is written all the same.
SLURM=class SLURM_OPTIONS=--hold sh labs/gradebook "$tmp/three" "$tmp/heldbook" >"$tmp/held.out" 2>&1 &
book_pid=$!
n=0
until job=$(sed -n 's/^submitted Slurm job \([0-9]*\) .*/\1/p' "$tmp/held.out") && [ -n "$job" ] || [ $n -ge 240 ]
do sleep 0.5; n=$((n + 1)); done
task=$([ -n "$course" ] && echo 2 || echo 1)  # bo's
scancel "${job}_$task" && scontrol release "$job" >/dev/null
wait $book_pid; code=$?
echo "# Slurm up in $((t0 - started)) s; its book in $((t1 - t0)) s (the one-machine book then, its builds kept," \
     "in $((t2 - t1)) s); the book of a task cancelled in $(($(date +%s) - t2)) s"
row=$(grep '^bo,' "$tmp/heldbook.csv" | cut -d, -f1-4)
others=$(csv_select "$tmp/heldbook.csv" student verdict 2>&1 | grep -v '^bo,' | tr '\n' ' ')
want=$(csv_select "$tmp/onebook.csv" student verdict 2>&1 | grep -v '^bo,' | tr '\n' ' ')
[ $code = 77 ] && [ "$others" = "$want" ] &&
    case $row in "bo,ch1_map,not graded (Slurm task $task left no rows and is gone from Slurm"*",4") true ;;
                 *) false ;; esac &&
    grep -q -F '| bo | not graded | 0 |' "$tmp/heldbook.md" &&
    grep -q "^labs/gradebook: Slurm task $task left no rows and is gone from Slurm" "$tmp/held.out"
ok $? "a task cancelled before it ran: its row says so (not graded, exit 4), the others graded, exit 77" \
   "job ${job:-none}, exit $code; bo: $row; others: $others; $(tail -n 6 "$tmp/held.out")"
done_testing
