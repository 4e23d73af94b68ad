#!/bin/sh
# The compiler's sandbox (labs/steps/run.sh: compile_words), without a GPU: a tiny file compiled in it as
# labs/steps/build.sh does, with the course's nvcc line. It must see what a build needs where a cluster puts
# it outside /usr (a host compiler of "module load gcc", nvcc's -ccbin; a folder of LD_LIBRARY_PATH), and
# still not the course: a folder above the course is never shown, whatever the environment names.
set -u
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$(pwd)
. labs/steps/run.sh
[ -z "$sandbox_why" ] || skip_all "no sandbox here: $sandbox_why ($sandbox_how)"
nvcc_line=$(make -s --no-print-directory lab-nvcc) cuda_dir=$(make -s --no-print-directory lab-cuda-dir)
lib_compile="" lib_link=""
# compiled: compiles a kernel in a fresh folder, in the sandbox, with the nvcc line; its messages in
# $tmp/compile.log
n=0
compiled() {
    n=$((n + 1)); work="$tmp/work.$n"; mkdir -p "$work"
    printf '__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$work/k.cu"
    words="$(compile_words "$work")$(w $nvcc_line) -c k.cu -o k.o"
    (cd "$work" && eval "set -- $words" && timeout -k 5 120 "$@") >"$tmp/compile.log" 2>&1 && [ -s "$work/k.o" ]
}

compiled; ok $? "a kernel compiles in the sandbox" "$(tail -n 5 "$tmp/compile.log")"

# A cluster's compiler: a gcc of its own prefix, outside /usr, given to nvcc by -ccbin (the Makefile's
# HOST_COMPILER); here a prefix whose gcc and g++ run the system's, so that only the sandbox's view differs.
prefix="$tmp/apps/gcc-13.2"
mkdir -p "$prefix/bin"
for cc in gcc g++; do
    printf '#!/bin/sh\nexec /usr/bin/%s "$@"\n' "$cc" >"$prefix/bin/$cc" && chmod +x "$prefix/bin/$cc"
done
course_line=$nvcc_line nvcc_line="$nvcc_line -ccbin $prefix/bin/g++"
compiled; status=$? nvcc_line=$course_line
ok $status "a host compiler outside /usr (-ccbin, a cluster's module): the kernel compiles" \
    "$(tail -n 5 "$tmp/compile.log")"
# (-ccbin may name the compiler's folder: its prefix is shown, nothing wider)
nvcc_line="$course_line -ccbin $prefix/bin"
compiled; status=$? words=$(compile_words "$tmp/work.x") nvcc_line=$course_line
[ $status = 0 ] && echo "$words" | grep -q -F "'--ro-bind' '$prefix' '$prefix'" &&
    ! echo "$words" | grep -q -F -e "'$tmp/apps' '$tmp/apps'" -e "'$tmp' '$tmp'"
ok $? "the same, -ccbin naming its folder: its prefix shown, nothing wider" "$(tail -n 5 "$tmp/compile.log")"
# (the same compiler found in PATH, where nvcc looks when no -ccbin is given)
! compile_words "$tmp/work.x" | grep -q -F "'$prefix'"
ok $? "a compiler outside /usr that nvcc does not use is not shown"
PATH="$prefix/bin:$PATH" compile_words "$tmp/work.x" | grep -q -F "'--ro-bind' '$prefix' '$prefix'"
ok $? "the one PATH gives first is shown, its prefix read-only (its lib/gcc, libexec/gcc)"

# LD_LIBRARY_PATH: a folder outside /usr is shown read-only (a module's libstdc++ that the runner needs);
# the course, or a folder above it, never.
mkdir -p "$tmp/apps/lib64"
lib="$tmp/apps/lib64"
LD_LIBRARY_PATH=$lib compile_words "$tmp/work.x" | grep -q -F "'--ro-bind' '$lib' '$lib'"
ok $? "a folder of LD_LIBRARY_PATH outside /usr is shown read-only"
# (a folder it names that is not there is left out: bubblewrap would refuse to start)
LD_LIBRARY_PATH="$tmp/nowhere:$lib" compiled
ok $? "LD_LIBRARY_PATH naming a folder that is not there: the kernel compiles" "$(tail -n 5 "$tmp/compile.log")"
above=$(dirname "$root")
LD_LIBRARY_PATH="$root:$above:/" PATH="$root:$PATH" compile_words "$tmp/work.x" >"$tmp/words"
! grep -q -F -e "'$root' '$root'" -e "'$above' '$above'" -e "'/' '/'" "$tmp/words"
ok $? "the course, the folder above it and / are never shown, though LD_LIBRARY_PATH names them" \
    "$(tr ' ' '\n' <"$tmp/words" | grep -n -F -e "$root" -e "'/'" | head -n 5)"
# ... nor through a compiler kept in the course's own folder, whose prefix would be the course
mkdir -p "$tmp/course_cc" && cp -p "$prefix/bin/g++" "$tmp/course_cc/g++"
root_words=$(root="$tmp" nvcc_line="$nvcc_line -ccbin $tmp/course_cc/g++" compile_words "$tmp/work.y")
! echo "$root_words" | grep -q -F "'--ro-bind' '$tmp' '$tmp'"
ok $? "a compiler under the course: the course is not shown for it" "$root_words"

# The runner's sandbox: a tool that wraps the runner, installed outside /usr and the toolkit (Nsight Compute
# alone: /opt/nvidia/nsight-compute/VERSION/ncu, step 4's), runs there; one under the course is not shown.
tool="$tmp/opt/nsight-compute/2025.3.1/ncu" runner="$tmp/bin/runner"
mkdir -p "$(dirname "$tool")" "$(dirname "$runner")"
printf '#!/bin/sh\nexec "$@"\n' >"$tool" && printf '#!/bin/sh\necho the runner ran\n' >"$runner" &&
    chmod +x "$tool" "$runner"
in_sandbox() {  # in_sandbox TOOL: the tool, and through it the runner, in step 4's sandbox
    words="$(sandbox_words counters "$runner" "$1")$(w "$1" "$runner")"
    (eval "set -- $words" && timeout -k 5 60 "$@") >"$tmp/run.log" 2>&1
}
in_sandbox "$tool" && grep -q "the runner ran" "$tmp/run.log"
ok $? "a tool installed outside /usr (Nsight Compute's /opt/...) starts the runner in its sandbox" \
    "$(cat "$tmp/run.log")"
ln -s "$tool" "$tmp/bin/ncu"
in_sandbox "$tmp/bin/ncu" && grep -q "the runner ran" "$tmp/run.log"
ok $? "... through a link to it in another folder" "$(cat "$tmp/run.log")"
tool_root=$(root="$tmp/opt" tool_words "$tool")
! echo "$tool_root" | grep -q -F "'$tmp/opt"
ok $? "a tool under the course: the course is not shown for it" "$tool_root"
# ... nor the grade's own folder, or one above it (the host's /tmp, where every grade's folder is: the
# files graded beside this one, their judges' sockets), for a tool or a library folder kept there
cp -p "$tool" "$tmp/ncu"
tool_tmp=$(tool_words "$tmp/ncu")$(tmp="$tmp/grade" tool_words "$tmp/ncu")$(LD_LIBRARY_PATH=$tmp system_words)
! echo "$tool_tmp" | grep -q -F "'$tmp' '$tmp'"
ok $? "a tool or a library folder in the grade's folder or above it: that folder is not shown" "$tool_tmp"

# The course's own files stay out: a file that includes one does not compile.
printf '#include "%s/labs/solutions/ch1_map.cu"\n' "$root" >"$tmp/steal.cu"
work="$tmp/work.steal"; mkdir -p "$work"; cp "$tmp/steal.cu" "$work/k.cu"
words="$(compile_words "$work")$(w $nvcc_line) -c k.cu -o k.o"
! (cd "$work" && eval "set -- $words" && timeout -k 5 120 "$@") >"$tmp/compile.log" 2>&1
ok $? "a file that includes the course's solution does not compile in the sandbox" "$(tail -n 3 "$tmp/compile.log")"
done_testing
