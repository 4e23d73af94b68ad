# labs/steps/build.sh: step 0 of labs/grade (sourced): the file compiled alone, checked against the lab's
# rules (labs/rules.txt) and linked into its runner. step_build prints the runner's path in $runner, or
# grades the build's failure; LAB_BUILD_ONLY=1 stops there.
# ==== 0. Build, and the rules (labs/rules.txt) ====
rules=$root/labs/rules.txt
tab=$(printf '\t')
rules_for() {  # rules_for KIND: "PATTERN<tab>SENTENCE" of the lab's and everyone's lines of that kind
    awk -v lab="$lab" -v kind="$1" '!/^[[:space:]]*(#|$)/ && ($1 == lab || $1 == "*") && $2 == kind {
        sentence = ""; for (i = 4; i <= NF; i++) sentence = sentence (i > 4 ? " " : "") $i
        print $3 "\t" sentence }' "$rules"
}
# A lab whose speed a process gets when it starts (rules.txt "LAB timed N": ch3_graph's launches run at one
# of a few speeds, the same all through a process) is timed in N processes of the file (step 3).
processes=$(rules_for timed | cut -f1 | head -n 1)
case ${processes:=1} in ''|*[!0-9]*|0*) echo "labs/grade: rules.txt: '$lab timed $processes'?" >&2; exit 2 ;; esac
# A library the lab's file uses (rules.txt: "LAB link cublas|nccl|mpi"): how to compile against it and
# link it, from make; a library this machine lacks means the lab cannot run here.
lib_compile="" lib_link=""
lib_flags() { sed -n "s/^$1: *//p" "$tmp/lib"; }  # lib_flags compile|link: make's line of that name
for lib in $(rules_for link | cut -f1); do
    make -s -C "$root" --no-print-directory "lab-flags-$lib" >"$tmp/lib" 2>"$tmp/lib.why"
    if [ -z "$(lib_flags link)" ]; then
        echo "0. Build"
        echo "  $lab needs $lib, which make did not find on this machine; make says why:"
        grep '^make: ' "$tmp/lib.why" | sed 's/^/  /' | head -n 3
        grade "not run (no $lib here)" 77
    fi
    lib_compile="$lib_compile $(lib_flags compile)" lib_link="$lib_link $(lib_flags link)"
done
# The judge and the runner's own parts come from the course (make; after the libraries, whose headers a
# stub may include); a file is compiled here, alone, in
# a folder keyed on the lab, the file's path, its checksum and the compiler's flags: never a stale one.
# make's settings come with them, in the same call (lab-settings: "NAME: VALUE" lines). Where a part is
# missing (the first grade on a machine, about a minute) it is said before, on stderr: not a silence.
for part in "judge/$lab" "runner/$lab.o" runner.o launches.o runner/touch.o libraries.o; do
    [ -f "$root/output/labs/$part" ] && continue
    echo "Building the course's lab programs ($lab's judge and runner; the first grade, about a minute)..." >&2
    break
done
make -s -C "$root" --no-print-directory "output/labs/judge/$lab" "output/labs/runner/$lab.o" output/labs/runner.o \
    output/labs/launches.o output/labs/runner/touch.o lab-settings >"$tmp/settings" 2>"$tmp/make.log" ||
    { cat "$tmp/settings" "$tmp/make.log"; echo "labs/grade: the course's own parts did not build" >&2; exit 2; }
setting() { sed -n "s/^$1: *//p" "$tmp/settings" | head -n 1; }
nvcc_line=$(setting nvcc)
wrap=$(setting wrap)  # (launches.c counts the kernels)
cuda_dir=$(setting cuda-dir)
cuobjdump=$(setting cuobjdump)
[ -n "$nvcc_line" ] || { cat "$tmp/make.log"; echo "labs/grade: make lab-settings said no nvcc" >&2; exit 2; }
judge=$root/output/labs/judge/$lab

# rules_read KEY DIR [HANDOUT]: the rules' finding on DIR/student.o (kept under KEY, or read by
# labs/rules.sh, against HANDOUT/student.o where the lab's kernels are given), in files named $rules_at.*,
# one build's own: the refusals in .refusals, labs/rules.sh's status in .status (written last:
# rules_verdict waits for it); its seconds in $tmp/rules.times (grade-rules-seconds). A finding whose
# files were not all written (a full disk) is an error (status 2), never kept.
rules_read() {
    kept=$root/output/labs/build/.rules/$1
    if [ -f "$kept" ]; then
        if cp "$kept" "$rules_at.refusals"; then rules_status=0; else rules_status=2; fi
    else
        rules_start=$(date +%s.%N)  # (what reading them costs: grade-rules-seconds, tests/grade_overhead.sh)
        # (a reading that hangs, a cuobjdump or nvdisasm stuck on a file, is stopped as any step's program is)
        LAB_NVCC="$nvcc_line" CUOBJDUMP="$cuobjdump" LAB_LIB_FLAGS="$lib_compile $lib_link" timeout -k 5 "$timeout_s" \
            sh "$root/labs/rules.sh" "$lab" "$2" ${3:+"$3"} >"$rules_at.refusals" 2>"$rules_at.why"
        rules_status=$?
        case $rules_status in
            124|137) echo "labs/rules.sh: stopped after $timeout_s s (LAB_TIMEOUT)" >>"$rules_at.why" ;;
        esac
        [ $rules_status != 1 ] || [ -s "$rules_at.refusals" ] || rules_status=2  # (refusals it could not write)
        echo "$rules_start $(date +%s.%N)" >>"$tmp/rules.times"
        case $rules_status in
            0|1) mkdir -p "${kept%/*}" && cp "$rules_at.refusals" "$kept.$$" && mv "$kept.$$" "$kept" ;;
        esac
    fi
    echo "$rules_status" >"$rules_at.status.new" && mv "$rules_at.status.new" "$rules_at.status"
}
# rules_found: the finding in $rules_at.* is whole: a status of 0, or 1 with the refusals written.
rules_found() {
    case $(cat "$rules_at.status" 2>/dev/null) in
        0) ;;
        1) [ -s "$rules_at.refusals" ] ;;
        *) false ;;
    esac
}
# rules_judged: the finding read: exit 2 where the rules could not be read (the course's side, said on
# stderr), 1 with the refusals in $tmp/build.out (their verdict on its first line), else 0.
rules_judged() {
    if ! rules_found; then
        cat "$rules_at.why" >&2 2>/dev/null
        echo "labs/grade: the lab's rules could not be checked (labs/rules.sh)" >&2
        return 2
    fi
    [ -s "$rules_at.refusals" ] || return 0
    first=$(head -n 1 "$rules_at.refusals" | sed 's/^  //; s/:.*//; s/ (.*//')
    count=$(awk '!seen[$0]++' "$rules_at.refusals" | wc -l)
    { echo "FAIL (rule: $first)"; echo "0. The lab's rules (labs/rules.txt)"
      awk '!seen[$0]++' "$rules_at.refusals" | head -n 8
      [ "$count" -le 8 ] || echo "  (and $((count - 8)) more)"; } >"$tmp/build.out"
    return 1
}
# rules_waited AT: waits while the rules read beside (files AT.*: AT.pid their process) have no finding and
# their process runs (labs/steps/run.sh's rules_gate holds the runner back the same way).
rules_waited() {
    while [ ! -f "$1.status" ] && kill -0 "$(cat "$1.pid" 2>/dev/null)" 2>/dev/null; do sleep 0.05; done
}
# rules_verdict: where the file's rules are being read beside the grade (build ... beside: their files'
# name, key, folder and hand-out's folder in $tmp/rules.beside), waits for their finding; a refusal is the
# grade (FAIL, step 0's report, whatever steps 1 and 2 found), as is an error. A finding read beside that
# is not whole (its process gone without one, a status but no refusals, an error) is read again here, the
# runner ended: the reading beside saves time, never changes a verdict. (Called once a grade: every caller
# grades next.)
rules_verdict() {
    [ -s "$tmp/rules.beside" ] || return 0
    rules_at=$(sed -n 1p "$tmp/rules.beside")
    set -- "$(sed -n 2p "$tmp/rules.beside")" "$(sed -n 3p "$tmp/rules.beside")" "$(sed -n 4p "$tmp/rules.beside")"
    rm -f "$tmp/rules.beside"
    rules_waited "$rules_at"
    rules_found || rules_read "$@"
    rules_judged
    case $? in
        2) exit 2 ;;
        1) tail -n +2 "$tmp/build.out"; grade "$(head -n 1 "$tmp/build.out")" 1 ;;
    esac
}

# build COPY PATH SUM: compiles COPY (the file's contents, as PATH) and checks the rules. Prints the
# runner's path on the last line; exit 0, or 1 with what failed in $tmp/build.out (its verdict on its
# first line).
build() {
    copy=$1 path=$2 checksum=$3
    key=$(printf '%s\n%s\n%s\n%s\n%s\n' "$lab" "$path" "$checksum" "$nvcc_line" "$lib_compile" | sha256sum | cut -c1-16)
    dir=$root/output/labs/build/$lab-$key
    # Compiler messages name the file as the student knows it: a #line, its " and \ as _ (ptxas refuses
    # an escaped quote in the .file line the name becomes).
    quoted=$(printf '%s' "$path" | tr '"\\' '__')
    if [ ! -f "$dir/student.o" ]; then
        mkdir -p "$root/output/labs/build"
        work=$(mktemp -d "$root/output/labs/build/.$lab.XXXXXX")
        trap 'rm -rf "$work"' EXIT  # (build runs in a subshell: this is its own trap)
        # (a UTF-8 byte-order mark at the file's start goes before the #line, where it would be text: dropped)
        { printf '#line 1 "%s"\n' "$quoted"; sed '1s/^\xef\xbb\xbf//' "$copy"; } >"$work/$lab.cu"
        # A file that makes the compiler run away (a self-include, a huge template) stops at 120 s and 8 GiB;
        # the compiler runs in a sandbox of its own (labs/steps/run.sh: compile_words).
        # shellcheck disable=SC2086  # nvcc_line is a command line, split on purpose
        words="$(compile_words "$work")$(w $nvcc_line $lib_compile) -c $(w "$lab.cu") -o student.o -MD -MF student.d"
        if ! (cd "$work" && ulimit -v 8388608 && eval "set -- $words" && timeout -k 5 120 "$@") \
                >"$work/compile.log" 2>&1; then
            { echo "FAIL (does not compile)"; echo "0. Build"; sed 's/^/  /' "$work/compile.log" | head -n 30
              echo "  $path does not compile: the first error above names its line"; } >"$tmp/build.out"
            rm -rf "$work"
            return 1
        fi
        # (-T: where a grade of the same file beside this one got there first, mv fails, not moves into it)
        mv -T "$work" "$dir" 2>/dev/null || rm -rf "$work"
    fi
    # A lab whose kernels are given (rules.txt "LAB given NAMES"): the hand-out, built the same way, is
    # what they must compile to (built first, in a folder of its own, before this file's checks).
    given=$(rules_for given | head -n 1)
    handout_dir=""
    if [ -n "$given" ] && [ -z "${building_handout:-}" ]; then
        handout_dir=$(tmp=$tmp/handout building_handout=1; mkdir -p "$tmp"
                      handout=$root/labs/$lab.cu
                      build "$handout" "$handout" "$(sha256sum <"$handout" | cut -c1-64)") ||
            { echo "labs/grade: the hand-out labs/$lab.cu does not build" >&2; exit 2; }
        handout_dir=$(dirname "$handout_dir")
    fi
    # The rules, read from what the compiler made of the file: its machine code, its object, its headers
    # (labs/rules.sh; it needs cuobjdump, the toolkit's or tests/install_tools.sh's).
    # Their finding is kept, keyed on everything it reads (the object, its headers' list, the hand-out's
    # object, the rules and their readers, the flags): the course's solution is read once, not every grade.
    # The file's own (build's fourth word "beside") are read in the background while the runner is linked
    # and steps 1 and 2 run it in its sandbox; rules_verdict waits for them before step 1 says anything (a
    # second or so of disassembly off a grade's path). Any other build reads them first.
    rules_key=$({ printf '%s\n' "$lab" "$nvcc_line" "$lib_compile $lib_link" "$cuobjdump"
                  cat "$dir/student.o" "$dir/student.d" ${given:+"${handout_dir:-$dir}/student.o"} \
                      "$root/labs/rules.txt" "$root/labs/rules.sh" "$root/labs/sass.awk" "$root/labs/elf.awk"
                } | sha256sum | cut -c1-32)
    rules_at=$tmp/rules.$key
    rm -f "$rules_at".*
    against=${given:+"${handout_dir:-$dir}"}
    if [ "${4:-}" = beside ]; then
        # (in a group: dash gives a function call's redirections to the function, not to the programs it
        # starts, which kept $()'s output open, and build's caller waited for the rules all the same)
        { rules_read "$rules_key" "$dir" "$against"; } >/dev/null 2>&1 </dev/null 8>&- 9>&- &
        echo $! >"$rules_at.pid"
        printf '%s\n' "$rules_at" "$rules_key" "$dir" "$against" >"$tmp/rules.beside"
    else
        rules_read "$rules_key" "$dir" "$against"
        rules_judged || return
    fi
    # The runner: the file's object with the lab's stub and the runner's main.
    # shellcheck disable=SC2086
    if ! $nvcc_line "$dir/student.o" "$root/output/labs/runner/$lab.o" "$root/output/labs/runner.o" \
            "$root/output/labs/launches.o" "$root/output/labs/runner/touch.o" $wrap $lib_link \
            -o "$dir/runner.$$" >"$tmp/link.log" 2>&1; then
        # (the name the linker misses, not the runner's lab_call that calls it: "undefined reference to `lab_...'")
        wanted=$(sed -n 's/.*undefined[^`]*`\{0,1\}\(lab_[a-z_0-9]*\).*/\1/p' "$tmp/link.log" | head -n 1)
        [ -n "$wanted" ] || wanted="the lab's function"  # (not in a ${:-}: bash reads a ' there as a quote)
        { echo "FAIL (the lab's function is missing or has other parameters)"; echo "0. Build"
          sed 's/^/  /' "$tmp/link.log" | grep -v '^ *$' | head -n 10
          echo "  the runner calls $wanted with the parameters the statement gives:" \
              "keep its name and its parameters"; } >"$tmp/build.out"
        rm -f "$dir/runner.$$"
        return 1
    fi
    mv "$dir/runner.$$" "$dir/runner"
    echo "$dir/runner"
}

# The course's solution (where there is one): built as any file is, when step 3 times it (called in $(),
# a subshell, as build must be: it sets its own trap).
solution_file=$root/labs/solutions/$lab.cu
build_solution() {
    cat "$solution_file" >"$tmp/solution.cu" && build "$tmp/solution.cu" "$solution_file" \
        "$(sha256sum <"$tmp/solution.cu" | cut -c1-64)"
}


step_build() {
    runner=$(build "$tmp/copy.cu" "$file" "$sum" beside)  # (the file's rules read beside: rules_verdict)
    [ $? != 2 ] || exit 2  # (the course's side: the rules could not be read, the hand-out did not build)
    if [ -z "$runner" ]; then
        rules_verdict  # (a refusal first, as where the rules were read before the link)
        tail -n +2 "$tmp/build.out"
        grade "$(head -n 1 "$tmp/build.out")" 1
    fi
    if [ "${LAB_BUILD_ONLY:-0}" = 1 ]; then  # (make labs builds every lab at once, then grades them in turn)
        [ ! -f "$solution_file" ] || : "$(build_solution)"
        rules_verdict
        grade "not run (built only: LAB_BUILD_ONLY=1)" 77
    fi
}
