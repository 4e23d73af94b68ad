#!/bin/sh
# Grades that share a GPU (make labs, labs/gradebook: LAB_GPU_LOCK) time it alone: labs/steps/run.sh's
# gpu_lock, a shared lock for the steps that check and an exclusive one for the step that times, with a gate
# so that a grade waiting to time is not passed by grades that come after it. No GPU needed: three shells
# take the lock as three grades would, and say when they got it.
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v flock >/dev/null 2>&1 || { skip "flock (util-linux) is not installed: gpu_lock does nothing then"
                                      done_testing; exit 0; }
# The function as labs/grade has it, alone.
awk '/^gpu_lock\(\) \{/ { on = 1 } on { print } on && /^}/ { exit }' labs/steps/run.sh >"$tmp/lock.sh"
grep -q 'flock' "$tmp/lock.sh"
ok $? "labs/steps/run.sh defines gpu_lock" "$(cat "$tmp/lock.sh")"
export LAB_GPU_LOCK="$tmp/gpu"
t0=$(date +%s.%N)
# grade NAME WAIT KIND HOLD: after WAIT seconds asks for the lock (shared or alone), notes when it got it
# (seconds after t0), holds it HOLD seconds.
grade() {
    sh -c '. "$0"; sleep "$2"; gpu_lock "$3"; echo "$(date +%s.%N)" >"$1"; sleep "$4"' "$tmp/lock.sh" \
        "$tmp/$1" "$2" "$3" "$4" &
}
grade checking 0 shared 1.5     # a grade in its correctness step
grade timing 0.3 alone 1        # one that comes to its speed step meanwhile
grade later 0.6 shared 0        # and one that starts checking after that
grade beside 0 shared 0         # one that checks beside the first
wait
got() { awk -v t0="$t0" '{ printf "%.2f", $1 - t0 }' "$tmp/$1"; }
awk -v b="$(got beside)" 'BEGIN { exit !(b < 0.5) }'
ok $? "two grades check side by side (shared)" "the second got it at $(got beside) s"
awk -v t="$(got timing)" 'BEGIN { exit !(t >= 1.4) }'
ok $? "a grade times only once no other grade is checking (alone)" \
   "it got the lock at $(got timing) s; the grade checking held it until 1.5 s"
awk -v t="$(got timing)" -v l="$(got later)" 'BEGIN { exit !(l >= t + 0.9) }'
ok $? "a grade that asks after one waiting to time waits behind it (the gate)" \
   "timing got it at $(got timing) s, held it 1 s; the later grade got it at $(got later) s"
# Without LAB_GPU_LOCK nothing waits (a grade alone: labs/grade run by hand).
t0=$(date +%s.%N)
grade holding 0 alone 1.5
sleep 0.2
LAB_GPU_LOCK="" sh -c '. "$0"; gpu_lock alone; date +%s.%N >"$1"' "$tmp/lock.sh" "$tmp/unset"
wait
[ -s "$tmp/unset" ] && awk -v u="$(got unset)" 'BEGIN { exit !(u < 1) }'
ok $? "without LAB_GPU_LOCK, gpu_lock waits for nothing" "it returned at $(got unset) s; another held the lock to 1.5 s"
done_testing
