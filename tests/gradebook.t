#!/bin/sh
# The grade books (make labs CSV=, labs/table.sh; make gradebook, labs/gradebook), without a GPU: a book is
# written as a regular file only, through a file beside it, or not at all (exit 1, said); its rows and its
# table are the reports', column by column; a class is graded once a file, on one GPU at a time, each GPU
# timing the solution for itself (stand-ins for nvidia-smi); and a class of three on a machine without a
# GPU gets a build-only book: built and not run, or does not compile with the compiler's error named.
# (tests/slurm.t grades the same class of three as a Slurm job array.)
. tests/tap.sh
# (every grade reads its file's machine code: without cuobjdump labs/grade stops, exit 2, as grade.t says)
if [ ! -x "$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)" ]; then
    skip_all "no cuobjdump: labs/grade cannot read a file's machine code (sh tests/install_tools.sh fetches it)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. labs/csv.sh  # the grade books' rows, written and read by their columns' names
course=$([ -d labs/solutions ] && echo yes)
# The grade book writes a regular file only, through a file beside it; a device, a folder or a link is
# refused before anything runs (as root, CSV=/dev/null would otherwise replace the device).
for target in /dev/null "$tmp" "$tmp/link.csv"; do
    [ "$target" = "$tmp/link.csv" ] && ln -sf "$tmp/elsewhere.csv" "$target"
    CSV=$target sh labs/table.sh students ch1_map >"$tmp/out" 2>&1; code=$?
    [ $code = 2 ] && [ -c /dev/null ] && [ ! -e "$tmp/elsewhere.csv" ] && [ ! -e "$tmp/$(basename "$tmp").tmp" ]
    ok $? "make labs CSV=$(basename "$target"): refused (exit 2), left as it was" "exit $code; $(tail -n 2 "$tmp/out")"
done
# A class whose folders hold no lab's file is refused before anything is graded or written.
mkdir -p "$tmp/class/ann" && : >"$tmp/class/ann/notes.txt"
sh labs/gradebook "$tmp/class" "$tmp/classbook" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && [ ! -e "$tmp/classbook.csv" ] && [ ! -e "$tmp/classbook" ] &&
    grep -q "no student's folder holds a lab's file" "$tmp/out"
ok $? "labs/gradebook over folders without a lab's file: exit 2, said, nothing written" \
   "exit $code; $(tail -n 2 "$tmp/out")"
(ulimit -f 0; CSV=$tmp/book.csv sh labs/table.sh students ch1_map >"$tmp/out" 2>&1); code=$?
[ $code = 1 ] && [ ! -e "$tmp/book.csv" ]
ok $? "make labs CSV=file that cannot be written (ulimit -f 0): exit 1, no file" "exit $code; $(tail -n 2 "$tmp/out")"
# The same with no lab to grade, so that nothing but the write can make the exit status 1 (what it says
# goes through a pipe, which the limit leaves alone).
(ulimit -f 0; CSV=$tmp/book.csv sh labs/table.sh students 2>&1; echo "exit $?") | cat >"$tmp/out"
code=$(sed -n 's/^exit //p' "$tmp/out")
[ "$code" = 1 ] && [ ! -e "$tmp/book.csv" ] && grep -q "^cannot write $tmp/book.csv" "$tmp/out"
ok $? "make labs CSV=file that cannot be written, no lab graded: exit 1 all the same, said" \
   "exit $code; $(tail -n 2 "$tmp/out")"
# The grade book's row is the report's, column by column (labs/csv.sh writes and reads it by the
# columns' names), and so is the table printed.
CSV=$tmp/book.csv sh labs/table.sh students ch1_map >"$tmp/out" 2>&1; code=$?
report=output/labs/reports/ch1_map.txt
row=$(csv_select "$tmp/book.csv" lab file exit verdict correct sanitizer time_ms 2>&1)
want="ch1_map,labs/ch1_map.cu,$(csv_field "$report" exit),$(csv_field "$report" verdict),$(csv_field "$report" correct)"
want="$want,$(csv_field "$report" sanitizer),$(csv_field "$report" time-ms)"
table_line=$(printf '%-20s %-44s %-7s' ch1_map "$(csv_field "$report" verdict)" "$(csv_field "$report" correct)")
[ $code = 1 ] && [ "$row" = "$want" ] && grep -q -F "$table_line" "$tmp/out"
ok $? "make labs CSV=file: the lab's row and the table say what its report says" \
   "exit $code; row: $row; want: $want; $(tail -n 3 "$tmp/out")"
# labs/gradebook's book and its table of who passed what, the same way. Without a GPU a stand-in
# nvidia-smi takes it past its check: the solution's grade and the student's then say not run, and the
# book is exit 77 (written, some file not run). With one GPU, CUDA_VISIBLE_DEVICES is left as it was.
if ! have_gpu; then
    mkdir -p "$tmp/bin" "$tmp/bin2" "$tmp/one/ann"
    printf '#!/bin/sh\necho "GPU 0: a stand-in (tests/gradebook.t)"\n' >"$tmp/bin/nvidia-smi" &&
        chmod +x "$tmp/bin/nvidia-smi"
    cp labs/ch1_map.cu "$tmp/one/ann/"
    mkdir -p "$tmp/one/bo x" && cp labs/ch1_map.cu "$tmp/one/bo x/"  # (compiled first, side by side)
    PATH="$tmp/bin:$PATH" sh labs/gradebook "$tmp/one" "$tmp/onebook" >"$tmp/out" 2>&1; code=$?
    rows=$(csv_select "$tmp/onebook.csv" student lab verdict exit correct 2>&1 | tr '\n' ' ')
    want="ann,ch1_map,not run (no GPU),77,- bo x,ch1_map,not run (no GPU),77,- "
    [ -z "$course" ] || want="(solution),ch1_map,not run (no GPU),77,- $want"
    [ $code = 77 ] && [ "$rows" = "$want" ] && grep -q -F '| ann | not run | 0 |' "$tmp/onebook.md" &&
        grep -q -F '| bo x | not run | 0 |' "$tmp/onebook.md" && grep -q "^compiling the class's files" "$tmp/out" &&
        ! grep -q 'CUDA_VISIBLE_DEVICES' "$tmp/onebook"/*.txt && grep -q 'graded [0-9] of [0-9], all done)$' "$tmp/out"
    ok $? "labs/gradebook, one GPU: a row per grade and the table, by the columns' names (no GPU: not run, exit 77)" \
       "exit $code; rows: $rows; want: $want; $(cat "$tmp/onebook.md" 2>/dev/null) $(tail -n 3 "$tmp/out")"
    # A book that cannot be written: exit 1, said, and no book (every file was graded all the same).
    (ulimit -f 0; PATH="$tmp/bin:$PATH" sh labs/gradebook "$tmp/one" "$tmp/nobook" 2>&1; echo "exit $?") |
        cat >"$tmp/out"
    code=$(sed -n 's/^exit //p' "$tmp/out")
    [ "$code" = 1 ] && [ ! -e "$tmp/nobook.csv" ] && grep -q "^cannot write $tmp/nobook.csv" "$tmp/out"
    ok $? "labs/gradebook: a book that cannot be written (ulimit -f 0) is exit 1, said" \
       "exit $code; $(tail -n 3 "$tmp/out")"
    # Several GPUs (three listed, two of them visible, named as CUDA_VISIBLE_DEVICES names them): a grade
    # on one GPU at a time, each GPU timing the solution for itself, every file graded once; a lab whose
    # judge spreads over every GPU (rules.txt "gpus every": ch3_allreduce) last, on all of them.
    printf '#!/bin/sh\nfor g in 0 1 2; do echo "GPU $g: a stand-in (tests/gradebook.t)"; done\n' \
        >"$tmp/bin2/nvidia-smi" &&
        chmod +x "$tmp/bin2/nvidia-smi"
    cp -R "$tmp/one" "$tmp/two" && cp labs/ch3_allreduce.cu "$tmp/two/ann/"
    PATH="$tmp/bin2:$PATH" CUDA_VISIBLE_DEVICES=2,0 sh labs/gradebook "$tmp/two" "$tmp/twobook" >"$tmp/out" 2>&1
    code=$?
    rows=$(csv_select "$tmp/twobook.csv" student lab exit 2>&1 | tr '\n' ' ')
    want="ann,ch1_map,77 ann,ch3_allreduce,77 bo x,ch1_map,77 "
    solutions="(solution on GPU 2),ch1_map,77 (solution on GPU 0),ch1_map,77 (solution on all GPUs),ch3_allreduce,77"
    [ -z "$course" ] || want="$solutions $want"
    on() { head -n 1 "$tmp/twobook/$1.txt" | sed -n 's/^labs.gradebook: graded on GPU \([02]\) alone.*/\1/p'; }
    [ $code = 77 ] && [ "$rows" = "$want" ] && [ -n "$(on ann.ch1_map)" ] && [ -n "$(on bo_x.ch1_map)" ] &&
        [ -z "$(on ann.ch3_allreduce)" ] && grep -q '^grading on 2 GPUs (2,0)' "$tmp/out" &&
        { [ -z "$course" ] || [ "$(on _solution_on_GPU_2_.ch1_map)$(on _solution_on_GPU_0_.ch1_map)" = 20 ]; } &&
        grep -q 'graded [0-9] of [0-9], all done)$' "$tmp/out"
    ok $? "labs/gradebook, two GPUs of three visible: a solution timed on each, each file graded once on one of them" \
       "exit $code; rows: $rows; want: $want; GPUs: $(on ann.ch1_map) $(on bo_x.ch1_map); $(tail -n 8 "$tmp/out")"
fi
# A class of three on a machine without a GPU (CUDA_VISIBLE_DEVICES empty hides any GPU here): a build-only
# book, each file built and checked against the rules: the solution and the hand-out built, not run; a file
# that does not compile named so, with the compiler's first error, its line, under the table.
mkdir -p "$tmp/three/ada" "$tmp/three/bo" "$tmp/three/cy"
cp "labs/${course:+solutions/}ch1_map.cu" "$tmp/three/ada/ch1_map.cu" && cp labs/ch1_map.cu "$tmp/three/bo/"
{ cat labs/ch1_map.cu; echo "int broken = ;"; } >"$tmp/three/cy/ch1_map.cu"
line=$(wc -l <"$tmp/three/cy/ch1_map.cu")
t0=$(date +%s)
CUDA_VISIBLE_DEVICES= sh labs/gradebook "$tmp/three" "$tmp/threebook" >"$tmp/out" 2>&1; code=$?
echo "# the class of three's build-only book: $(($(date +%s) - t0)) s (the bar of an instructor's path: 3 minutes)"
rows=$(csv_select "$tmp/threebook.csv" student lab verdict exit 2>&1 | tr '\n' ' ')
want="ada,ch1_map,built; not run (no GPU here),77 bo,ch1_map,built; not run (no GPU here),77"
want="$want cy,ch1_map,FAIL (does not compile),1 "
[ -z "$course" ] || want="(solution),ch1_map,built; not run (no GPU here),77 $want"
error="cy/ch1_map.cu($line): error"
[ $code = 77 ] && [ "$rows" = "$want" ] && grep -q -F '| ada | built; not run | 0 |' "$tmp/threebook.md" &&
    grep -q -F '| cy | does not compile | 0 |' "$tmp/threebook.md" &&
    grep -q -F -- "- cy, \`ch1_map\`: \`$error" "$tmp/threebook.md" &&
    grep -q -F "$error" "$tmp/threebook/cy.ch1_map.txt" &&
    grep -q 'graded [0-9] of [0-9], all done)$' "$tmp/out" && { ! have_gnuplot || [ -s "$tmp/threebook.png" ]; }
ok $? "labs/gradebook without a GPU: a build-only book (built; not run / does not compile, its error named), exit 77" \
   "exit $code; rows: $rows; want: $want; $(cat "$tmp/threebook.md" 2>/dev/null) $(tail -n 6 "$tmp/out")"

done_testing
