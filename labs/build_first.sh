#!/bin/sh
# labs/build_first.sh: compiles lab files before they are graded, as many at once as there are CPUs, so
# that the grades in turn (make labs, labs/gradebook), which time the GPU, do not wait for the compiler.
#   { printf '%s\n' LAB FILE; ...; } | sh labs/build_first.sh        (two lines a file: its lab, its path)
# Each is `LAB_BUILD_ONLY=1 labs/grade LAB FILE`: the build is kept, keyed on the file's path and content,
# and the lab's solution is built with it; a build that fails here fails again, said, in the grade.
# xargs runs in the foreground: Ctrl-C stops every build.
here=$(cd "$(dirname "$0")" && pwd)
xargs -r -d '\n' -n 2 -P "$(nproc 2>/dev/null || echo 4)" sh -c \
    'LAB_BUILD_ONLY=1 sh "$0" "$1" "$2" >/dev/null 2>&1 </dev/null; exit 0' "$here/grade"
