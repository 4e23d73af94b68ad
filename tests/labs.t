#!/bin/sh
# The labs work, and their grade cannot be forged (labs/README.md). Everywhere: every lab has its statement, its
# judge, its runner stub and, in the course, its solution and at least two planted mistakes, each of which changes the
# solution; every skeleton, solution and mistake builds alone and follows the lab's rules (labs/grade exits 77 without
# a GPU); the cheats of tests/cheats/ that the rules refuse are refused, and the others never get 0 without a GPU;
# labs/grade refuses bad names and keeps odd ones intact and never grades a stale binary (the grade books:
# tests/gradebook.t); the hand-out targets keep their rule. On a GPU, through labs/grade without the timing
# (LAB_NO_TIME=1): every skeleton fails cleanly, every solution passes with compute-sanitizer clean, every planted
# mistake is caught by the report mistakes.txt names; the slow mistakes and the cheats that act in the timed runs are
# timed; every cheat fails with its reason; a missing compute-sanitizer is never a PASS.
. tests/tap.sh
[ -n "${LABS:-}" ] || { echo "Bail out! LABS is empty: run through 'make test'"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
verdict_of() { sed -n 's/^grade-verdict //p' "$1"; }
. labs/csv.sh  # the grade books' rows, written and read by their columns' names
course=$([ -d labs/solutions ] && echo yes)
# A lab that links a library (rules.txt "LAB link LIB") is built only where make finds the library:
# elsewhere its checks are skipped, with the reason. $tmp/missing: "LAB LIB" for each such lab here.
for lab in $LABS; do
    for lib in $(awk -v l="$lab" '!/^[[:space:]]*#/ && $1 == l && $2 == "link" { print $3 }' labs/rules.txt); do
        make -s --no-print-directory "lab-flags-$lib" 2>/dev/null | grep -q '^link: *[^ ]' ||
            { echo "$lab $lib"; break; }
    done
done >"$tmp/missing"
missing_lib() { awk -v l="$1" '$1 == l { print $2 }' "$tmp/missing"; }

for lab in $LABS; do
    head -n 1 "labs/$lab.cu" | grep -q "^/\* Lab $lab: "
    ok $? "labs/$lab.cu opens with its statement" "first line: $(head -n 1 "labs/$lab.cu")"
    [ -f "labs/judge/$lab.cu" ] && [ -f "labs/runner/$lab.cu" ]; ok $? "$lab has its judge and its runner stub"
    [ -n "$course" ] || continue  # a hand-out
    [ -f "labs/solutions/$lab.cu" ]; ok $? "$lab has a solution"
    # (a mistake whose report ends in /2gpus shows only on two GPUs: the two must show on one)
    planted=$(awk -v l="$lab" '$1 == l && $3 !~ /\/[0-9]+gpus$/' labs/solutions/mistakes.txt | wc -l)
    [ "$planted" -ge 2 ]
    ok $? "$lab has at least two planted mistakes that one GPU catches" "$planted in labs/solutions/mistakes.txt"
done
# labs/README.md's table of labs lists every lab of LABS, in that order, each with a time; the chapters
# never go back after the first steps; each session of its plan adds up to its time and fits its three
# hours; each plan holds ch3_events, ch3_graph and a lab over every GPU (tests/labs_plan.awk). Then the
# faults it is for, planted in copies: a session's time that is not its labs' sum, a session over its
# hours, ch1_transpose moved among chapter 2's labs in LABS.
every=$(awk '!/^[[:space:]]*#/ && $2 == "gpus" && $3 == "every" { print $1 }' labs/rules.txt | tr '\n' ' ')
plan() { awk -v labs="${2:-$LABS}" -v every="$every" -f tests/labs_plan.awk "$1"; }
broken=$(plan labs/README.md)
[ -z "$broken" ]; ok $? "labs/README.md's table lists LABS in order, and its plan adds up and fits" "$broken"
sed 's/^\(| two sessions | 1 |.*| \)\([0-9]*\) min |$/\1\21 min |/' labs/README.md >"$tmp/plan.md"
broken=$(plan "$tmp/plan.md")
! cmp -s labs/README.md "$tmp/plan.md" && echo "$broken" | grep -q "session 1: its time says"
ok $? "a session's time changed by hand is caught" "$broken"
sed 's/^\(| `ch3_events` |.*| \)30 min |$/\190 min |/' labs/README.md >"$tmp/plan.md"
broken=$(plan "$tmp/plan.md")
! cmp -s labs/README.md "$tmp/plan.md" && echo "$broken" | grep -q "more than a session's"
ok $? "a lab's time that takes a session past its hours is caught" "$broken"
moved=$(echo " $LABS " | sed 's/ ch1_transpose / /; s/ ch2_block_sum / ch2_block_sum ch1_transpose /')
broken=$(plan labs/README.md "$moved")
echo "$broken" | grep -q "ch1_transpose comes after chapter 2"
ok $? "a lab of chapter 1 among chapter 2's in LABS is caught" "$broken"
# Every statement states its contract (labs/README.md), in one place and form: a "Contract:" line, then the
# six fields in order, each with its text (a field's later lines indented two more), a blank line and the
# Rules line. A statement planted without its "zero:" field, and one with an empty "values:", must fail.
contract_problems() {  # contract_problems FILE: what is wrong with its statement's contract; nothing if right
    awk 'BEGIN { n = split("sizes pointers zero values index binding", field, " ") }
        /^ \*\// { if (state == 1 || state == 2) print "the block runs to the end of the statement"; exit }
        state == 2 { if ($0 !~ /^ \* Rules: /) print "the block is not followed by the Rules line"; state = 3 }
        state == 1 && match($0, /^ \*   [a-z]+:/) {
            name = substr($0, 6, RLENGTH - 6); k++
            if (name != field[k]) print "field " k " is \"" name "\", not \"" field[k] "\""
            if (substr($0, RLENGTH + 1) !~ /[^ ]/) print "field \"" name "\" is empty"
            next
        }
        state == 1 && /^ \*     [^ ]/ { next }
        state == 1 { if (k != n) print k " fields, not " n; if ($0 != " *") print "no blank line after it"; state = 2 }
        /^ \* Contract:$/ { if (seen++) print "a second Contract: line"; state = 1 }
        END { if (!seen) print "no \"Contract:\" line" }' "$1"
}
for lab in $LABS; do
    problems=$(contract_problems "labs/$lab.cu")
    [ -z "$problems" ]; ok $? "labs/$lab.cu's statement has its contract, every field filled" "$problems"
done
grep -v '^ \*   zero: ' labs/ch1_map.cu >"$tmp/no_zero.cu"
contract_problems "$tmp/no_zero.cu" | grep -q 'field 3 is "values", not "zero"'
ok $? "a statement without its zero: field fails the contract's check" "$(contract_problems "$tmp/no_zero.cu")"
sed 's/^ \*   values: .*/ *   values:/' labs/ch1_map.cu >"$tmp/empty_values.cu"
contract_problems "$tmp/empty_values.cu" | grep -q 'field "values" is empty'
ok $? "a statement with an empty values: field fails the contract's check" "$(contract_problems "$tmp/empty_values.cu")"
# One word for a launch the file may not change: "fixed" (a statement's "given" is for what the runner gives).
for lab in $LABS; do
    awk '/^ \*\// { exit } /launch[^.;]* (is|are) given|given[^.;]*launch/ { print FILENAME ":" FNR ": " $0 }' \
        "labs/$lab.cu"
done >"$tmp/given"
[ ! -s "$tmp/given" ]; ok $? "no statement calls a launch \"given\" (the word is \"fixed\")" "$(cat "$tmp/given")"
# labs/README.md's table of labs lists every lab of LABS, in that order.
listed=$(sed -n '/^<!-- labs:/,/^<!-- end labs -->/p' labs/README.md |
         sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' | tr '\n' ' ')
[ "$(echo $listed)" = "$(echo $LABS)" ]
ok $? "labs/README.md's table lists the labs of LABS, in order" "README: $listed; LABS: $LABS"
# The stubs are the labs: labs/grade takes a lab whose stub exists, so none may be left out of LABS.
for stub in labs/runner/*.cu; do
    name=$(basename "$stub" .cu)
    [ "$name" = touch ] && continue
    echo " $LABS " | grep -q " $name "; ok $? "labs/runner/$name.cu is a lab of the Makefile's LABS"
done
awk '!/^[[:space:]]*(#|$)/ { print $1 }' labs/rules.txt labs/targets.txt | sort -u | while read -r who; do
    [ "$who" = "*" ] || echo " $LABS " | grep -q " $who " || echo "$who"
done >"$tmp/unknown"
[ ! -s "$tmp/unknown" ]; ok $? "labs/rules.txt and labs/targets.txt name only labs" "$(cat "$tmp/unknown")"
for lab in $LABS; do  # (a lab judged on its results alone has no speed, so no target)
    grep -q "^$lab [0-9]" labs/targets.txt || grep -q 'lab_untimed(' "labs/judge/$lab.cu" || echo "$lab"
done >"$tmp/untargeted"
[ ! -s "$tmp/untargeted" ]; ok $? "every timed lab has a hand-out target in labs/targets.txt" "$(cat "$tmp/untargeted")"

# The grades below read each file's machine code (labs/rules.sh): without cuobjdump (a toolkit of nvcc
# alone; LAB_CUOBJDUMP=/nonexistent stands for one) labs/grade stops, exit 2, saying how to get it, and
# they are skipped, naming it.
LAB_CUOBJDUMP=/nonexistent sh labs/grade ch1_map labs/ch1_map.cu >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "cuobjdump" "$tmp/out" && grep -q "tests/install_tools.sh" "$tmp/out"
ok $? "without cuobjdump, labs/grade exits 2 and says how to get it" "exit $code; $(tail -n 4 "$tmp/out")"
if [ ! -x "$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)" ]; then
    skip "the labs' files graded" "no cuobjdump (sh tests/install_tools.sh fetches NVIDIA's)"
    done_testing
    exit
fi
# Without a sandbox and without a GPU nothing runs, so nothing needs one: exit 77, never 0 or 4.
if ! have_gpu; then
    LAB_BWRAP=/nonexistent sh labs/grade ch1_map labs/ch1_map.cu >"$tmp/out" 2>&1; code=$?
    [ $code = 77 ]; ok $? "without bubblewrap and without a GPU: exit 77, not run" "exit $code; $(tail -n 4 "$tmp/out")"
fi

# Every file of the course, built and checked against the rules (without a GPU, that is all: exit 77;
# with one, part 2 grades them). Two at a time.
{
    for lab in $LABS; do
        echo "$lab labs/$lab.cu"
        [ -z "$course" ] || echo "$lab labs/solutions/$lab.cu"
    done
    for mistake in ${LAB_MISTAKES:-}; do echo "${mistake%%.*} output/labs/mistakes/$mistake.cu"; done
} >"$tmp/files"
if ! have_gpu; then
    export LABS_TMP="$tmp"
    awk '{ print $1, $2, NR }' "$tmp/files" | xargs -P 2 -L 1 sh -c \
        'sh labs/grade "$1" "$2" >"$LABS_TMP/built.$3" 2>&1 </dev/null; echo $? >>"$LABS_TMP/built.$3"' sh
    n=0
    while read -r lab file; do
        n=$((n + 1))
        out=$tmp/built.$n
        code=$(tail -n 1 "$out")
        lib=$(missing_lib "$lab")
        if [ -n "$lib" ]; then
            # (labs/grade reads make lab-flags-LIB as this test does: it says the library is missing too)
            [ "$code" = 77 ] && [ "$(verdict_of "$out")" = "not run (no $lib here)" ]
            ok $? "$file: not run, no $lib here, labs/grade says too" "exit $code; verdict: $(verdict_of "$out")"
            skip "$file builds alone and follows $lab's rules" "no $lib here: $lab is not built"
            continue
        fi
        [ "$code" = 77 ] && [ "$(verdict_of "$out")" = "not run (no GPU)" ]
        ok $? "$file builds alone and follows $lab's rules" "exit $code; $(grep -v '^grade-' "$out" | tail -n 8)"
    done <"$tmp/files"
fi

# The cheats: the ones the rules or the compiler refuse, everywhere; the others never 0 without a GPU.
# (A hand-out has none: they hold solutions.)
cheats=tests/cheats/cheats.txt
[ -f "$cheats" ] || { cheats=/dev/null; echo "# a hand-out: no cheats to grade"; }
grep -v '^[[:space:]]*\(#\|$\)' "$cheats" >"$tmp/cheats"
while read -r lab name where expect; do
    if [ "$where" != any ] && have_gpu; then
        continue  # part 2
    fi
    if [ -n "$(missing_lib "$lab")" ]; then
        skip "the cheat $lab.$name" "no $(missing_lib "$lab") here: $lab is not built"
        continue
    fi
    sh labs/grade "$lab" "tests/cheats/$lab.$name.cu" >"$tmp/cheat" 2>&1 </dev/null
    code=$?
    if [ "$where" = any ]; then
        [ $code = 1 ] && verdict_of "$tmp/cheat" | grep -q -E -- "$expect"
        ok $? "the cheat $lab.$name is refused: $(verdict_of "$tmp/cheat")" \
           "exit $code; want /$expect/; $(tail -n 14 "$tmp/cheat")"
    else
        [ $code = 77 ]
        ok $? "the cheat $lab.$name without a GPU: exit 77, never 0" "exit $code; $(tail -n 8 "$tmp/cheat")"
    fi
done <"$tmp/cheats"

# The honest files of tests/honest/ (right, clean and fast, in shapes an older judge refused): without a
# GPU each is built and follows its lab's rules (exit 77); part 2 grades them.
honest=tests/honest/honest.txt
[ -f "$honest" ] || { honest=/dev/null; echo "# a hand-out: no honest variants to grade"; }
grep -v '^[[:space:]]*\(#\|$\)' "$honest" >"$tmp/honest"
if ! have_gpu; then
    while read -r lab name rest; do
        LAB_BUILD_ONLY=1 sh labs/grade "$lab" "tests/honest/$lab.$name.cu" >"$tmp/out" 2>&1 </dev/null; code=$?
        [ $code = 77 ]
        ok $? "the honest file $lab.$name builds and follows the rules" "exit $code; $(tail -n 12 "$tmp/out")"
    done <"$tmp/honest"
fi

# labs/grade's command line: a lab is one name of LABS, checked before any shell sees it; a FILE keeps
# its spaces and quotes; ~ is expanded; a missing file or a folder is refused.
sh labs/grade >"$tmp/out" 2>&1; code=$?
[ $code = 2 ]; ok $? "labs/grade without a lab: exit 2" "exit $code"
sh labs/grade no_such_lab >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "no lab no_such_lab" "$tmp/out"
ok $? "labs/grade no_such_lab: exit 2, named" "exit $code: $(head -n 2 "$tmp/out")"
(cd "$tmp" && sh "$OLDPWD/labs/grade" "ch1_map ;touch injected" >out 2>&1; echo $? >code)
[ "$(cat "$tmp/code")" = 2 ] && [ ! -e "$tmp/injected" ]
ok $? "labs/grade 'ch1_map ;touch injected': exit 2, nothing run" "exit $(cat "$tmp/code")"
make -s -C "$PWD" lab L='ch1_map ;touch '"$tmp"'/injected' >"$tmp/out" 2>&1; code=$?
[ $code != 0 ] && [ ! -e "$tmp/injected" ] && grep -q "is not a lab's name" "$tmp/out"
ok $? "make lab L='ch1_map ;touch ...': refused, nothing run" "exit $code; $(tail -n 3 "$tmp/out")"
odd="$tmp/my lab's \"map\" \$(x).cu"
cp labs/ch1_map.cu "$odd"
sh labs/grade ch1_map "$odd" >"$tmp/out" 2>&1; code=$?
want=$(sha256sum <"$odd" | cut -c1-64)
head -n 1 "$tmp/out" | grep -q -F "== Lab ch1_map: $odd (sha256 $want)" && { [ $code = 77 ] || [ $code = 1 ]; }
ok $? "a FILE with spaces, quotes and \$( is graded intact, its first line naming it and its checksum" \
   "exit $code; $(head -n 3 "$tmp/out")"
# ... and compiles (its name in the compiler's #line once made ptxas refuse the file: "does not compile")
LAB_BUILD_ONLY=1 sh labs/grade ch1_map "$odd" >"$tmp/out" 2>&1; code=$?
[ $code = 77 ]; ok $? "a FILE whose name has quotes compiles" "exit $code; $(head -n 8 "$tmp/out")"
# Through make, a value's $ must be written $$ (make expands it): spaces and quotes pass as they are.
odd_make="$tmp/my lab's \"map\".cu"
cp labs/ch1_map.cu "$odd_make"
make -s lab L=ch1_map FILE="$odd_make" >"$tmp/out" 2>&1
# (make's own notes may come first: a library it did not find, a parent make's jobserver)
grep -m 1 '^== Lab' "$tmp/out" | grep -q -F "== Lab ch1_map: $odd_make (sha256"
ok $? "make lab FILE='...' passes a name with spaces and quotes intact" "$(head -n 3 "$tmp/out")"
mkdir -p "$tmp/home"
cp labs/ch1_map.cu "$tmp/home/mine.cu"
HOME=$tmp/home sh labs/grade ch1_map '~/mine.cu' >"$tmp/out" 2>&1; code=$?
head -n 1 "$tmp/out" | grep -q -F "$tmp/home/mine.cu"
ok $? "FILE='~/mine.cu' is expanded to \$HOME/mine.cu" "exit $code; $(head -n 2 "$tmp/out")"
sh labs/grade ch1_map "$tmp/nothing_here.cu" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "no such file" "$tmp/out"; ok $? "a FILE that does not exist: exit 2" "exit $code"
sh labs/grade ch1_map "$tmp" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "is a folder" "$tmp/out"; ok $? "a FILE that is a folder: exit 2" "exit $code"
LAB_TIMEOUT=soon sh labs/grade ch1_map >"$tmp/out" 2>&1; code=$?
[ $code = 2 ]; ok $? "LAB_TIMEOUT=soon: exit 2" "exit $code"
(cd / && sh "$OLDPWD/labs/grade" ch1_map "$OLDPWD/labs/ch1_map.cu") >"$tmp/out" 2>&1; code=$?
[ $code = 77 ] || [ $code = 1 ]; ok $? "labs/grade works from another folder (exit $code)" "$(tail -n 5 "$tmp/out")"

# Never a stale binary: a file graded, then replaced by one that does not compile, dated before the
# first (as an unzipped submission is), is compiled again and fails.
cp labs/ch1_map.cu "$tmp/stale.cu"
sh labs/grade ch1_map "$tmp/stale.cu" >"$tmp/out" 2>&1
printf '__global__ void saxpy(float a, const float *x, float *y, long long n) { y[0] = 1 }\n' >"$tmp/stale.cu"
touch -d 2000-01-01 "$tmp/stale.cu"
sh labs/grade ch1_map "$tmp/stale.cu" >"$tmp/out" 2>&1; code=$?
[ $code = 1 ] && verdict_of "$tmp/out" | grep -q "does not compile" && grep -q "stale.cu" "$tmp/out"
ok $? "a file replaced by an older one that does not compile: FAIL (does not compile), naming it" \
   "exit $code; $(tail -n 12 "$tmp/out")"
# make labs compiles every file first (LAB_BUILD_ONLY=1): a build that stops there is never a PASS,
# and a file that does not compile is the same FAIL as in a whole grade.
LAB_BUILD_ONLY=1 sh labs/grade ch1_map "$tmp/stale.cu" >"$tmp/out" 2>&1; code=$?
[ $code = 1 ] && verdict_of "$tmp/out" | grep -q "does not compile"
ok $? "LAB_BUILD_ONLY=1, a file that does not compile: FAIL (does not compile)" "exit $code; $(tail -n 4 "$tmp/out")"
LAB_BUILD_ONLY=1 sh labs/grade ch1_map labs/ch1_map.cu >"$tmp/out" 2>&1; code=$?
[ $code = 77 ] && verdict_of "$tmp/out" | grep -q "^not run (built only"
ok $? "LAB_BUILD_ONLY=1, a file that compiles: exit 77, not run (never 0)" "exit $code; $(tail -n 4 "$tmp/out")"

# Hand-out targets by the class of the GPU (labs/targets.txt: SMALL under 64 SMs, LARGE from 64): each is
# 80% of the share of its limit that the course's solution reached on the GPU standing for its class in
# the committed data, rounded down (the 14-SM emulation; the H200), so that a file that leaves the lesson
# out, as slow against the limit as against the solution, is slow in a hand-out too.
# target_rule TARGETS "DATA..." COLUMN: "lab target reached" for each timed lab whose target breaks the
# rule, a lab's share read from the first DATA file that has it (a lab added since the run of every lab
# has a run of its own, labs/targets.txt says which).
target_rule() {
    for lab in $LABS; do
        grep -q 'lab_untimed(' "labs/judge/$lab.cu" && continue  # (judged on its results alone: no speed)
        target=$(awk -v l="$lab" -v c="$3" '!/^#/ && $1 == l { print $c }' "$1")
        reached=$(for data in $2; do csv_select "$data" lab percent_of_limit; done |
                  awk -F, -v l="$lab" '$1 == l { print $2 + 0; exit }')
        [ -n "$target" ] && [ -n "$reached" ] &&
            awk -v t="$target" -v r="$reached" 'BEGIN { exit !(t == int(0.8 * r)) }' ||
            echo "$lab ${target:-none} ${reached:-none}"
    done
}
d=figures/data/labs
for class in "2 SMALL 14-SM $d/solutions_gtx1650.csv" "3 LARGE H200 $d/solutions.csv"; do
    set -- $class
    column=$1 name=$2 gpu=$3; shift 3; set -- "$column" "$name" "$*" "$gpu"
    if [ -f "${3%% *}" ]; then
        target_rule labs/targets.txt "$3" "$1" >"$tmp/targets.bad"
        [ ! -s "$tmp/targets.bad" ]
        ok $? "labs/targets.txt's $2 column: 80% of the solutions' share of the limit on the $4 GPU, rounded down" \
            "lab, target, solution's share in $3: $(cat "$tmp/targets.bad")"
        # (the rule can fail: a target of 999 planted in a copy is caught)
        awk -v c="$1" '!/^#/ && !done && NF == 3 { $c = 999; done = 1 } 1' labs/targets.txt >"$tmp/targets.999"
        target_rule "$tmp/targets.999" "$3" "$1" | grep -q ' 999 '
        ok $? "a $2 target of 999 planted in a copy of labs/targets.txt is caught"
    else
        skip "labs/targets.txt's $2 column against the solutions on the $4" "no $3"
    fi
done

# LAB_SUBSET (make test LAB_SUBSET="..."): the labs graded on a GPU below, their files, mistakes and
# cheats (the whole part takes over ten minutes on one GPU); all of LABS by default.
graded_labs=${LAB_SUBSET:-$LABS}
for lab in $graded_labs; do echo " $LABS " | grep -q " $lab " || echo "$lab"; done >"$tmp/not_labs"
[ ! -s "$tmp/not_labs" ]; ok $? "LAB_SUBSET names labs of LABS" "$(cat "$tmp/not_labs")"
if ! have_gpu; then
    skip "the labs graded on a GPU" "no GPU"
    done_testing
    exit
fi
[ -z "${LAB_SUBSET:-}" ] ||
    echo "# graded on this GPU: LAB_SUBSET, $(echo $graded_labs | wc -w) of $(echo $LABS | wc -w) labs"

# ==== On a GPU ====
# Without compute-sanitizer (a toolkit installed without it), a right file is not graded (exit 4): the
# solutions must still be right, and the mistakes only a tool catches are skipped, saying so.
no_tool=""
[ -x "$(make -s lab-sanitizer 2>/dev/null)" ] || no_tool="no compute-sanitizer (make lab-sanitizer)"
# Each grade in the background, eight at a time (LABS_PARALLEL), without the timing (they share the
# GPU), then reported in order; output/labs/graded.csv keeps every verdict (labs/README.md's tables are
# rendered from a committed copy; LABS_GRADED_CSV=FILE writes it there instead, as tests/device_parallel.sh's
# parts do, one file each). A line: NAME FILE WANT, WANT "fail", "pass" or a mistake's report.
{
    for lab in $graded_labs; do
        echo "$lab.handout labs/$lab.cu fail"
        [ -z "$course" ] || echo "$lab.solution labs/solutions/$lab.cu pass"
    done
    [ -z "$course" ] || grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt |
        awk -v s=" $graded_labs " '$3 != "slow" && index(s, " " $1 " ") {
            print $1 "." $2, "output/labs/mistakes/" $1 "." $2 ".cu", $3 }'
} >"$tmp/list"
# (what this machine cannot show is not graded at all: a mistake that needs more GPUs, a lab whose
# library is missing; the loop below says them skipped)
gpus=$(gpu_count)
while read -r name file want; do
    need=1
    case $want in */*gpus) need=${want#*/}; need=${need%gpus} ;; esac
    [ "$gpus" -lt "$need" ] || [ -n "$(missing_lib "${name%%.*}")" ] || echo "$name $file $want"
done <"$tmp/list" >"$tmp/to_grade"
export LABS_TMP="$tmp"  # (xargs appends NAME FILE WANT to sh -c's arguments)
xargs -P "${LABS_PARALLEL:-8}" -L 1 sh -c \
    'LAB_NO_TIME=1 sh labs/grade "${1%%.*}" "$2" >"$LABS_TMP/$1.out" 2>&1 </dev/null
     echo $? >"$LABS_TMP/$1.code"' sh <"$tmp/to_grade"
# gpu_settles: on a GPU shared through MPS, wait (up to a minute) until it takes a new program again.
gpu_settles() {
    [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] || return 0
    for second in $(seq 60); do
        ./ch1_embarrassing/device_query >/dev/null 2>&1 && { sleep 2; return 0; }
        sleep 1
    done
}
# verdict NAME WANT: whether the grade in $tmp is what WANT asks; sets why.
verdict() {
    out="$tmp/$1.out"
    code=$(cat "$tmp/$1.code")
    v=$(verdict_of "$out")
    sanitizer=$(sed -n 's/^grade-sanitizer //p' "$out")
    why="exit $code; $(grep -v '^grade-' "$out" | tail -n 10)"
    case $2 in
        fail) [ "$code" = 1 ] && echo "$v" | grep -q "^FAIL" ;;
        pass) if [ -n "$no_tool" ]; then [ "$code" = 4 ] && [ "$(sed -n 's/^grade-correct //p' "$out")" = yes ]
              else [ "$code" = 0 ] && { [ "$sanitizer" = clean ] || [ "$sanitizer" = "not part of this lab" ]; } &&
                   { [ "$(sed -n 's/^grade-time-ms //p' "$out")" = - ] ||  # (timed: the clock's parts told)
                     grep -q '^grade-clock-ms touch [0-9.e+-]* outside [0-9.e+-]* round-trip [0-9.e+-]* own' "$out"; }
              fi ;;
        wrong) [ "$code" = 1 ] && [ "$(sed -n 's/^grade-correct //p' "$out")" = no ] ;;
        *) [ "$code" = 1 ] && echo "$sanitizer" | grep -q "$2" ;;
    esac
}
mkdir -p output/labs
# graded.csv's columns; each row takes its fields by these names (labs/csv.sh: csv_row).
graded_columns=name,want,exit,verdict,correct,sanitizer
echo "$graded_columns" >"$tmp/graded.csv"
gpus=$(gpu_count)
while read -r name file want; do
    need=1
    case $want in */*gpus) need=${want#*/}; need=${need%gpus}; want=${want%/*} ;; esac
    case $want in
        fail) text="labs/${name%%.*}.cu as handed out fails cleanly" ;;
        pass) text="the solution of ${name%%.*} passes, sanitizers clean" ;;
        wrong) text="the mistake $name is caught by the result check" ;;
        *) text="the mistake $name is caught by $want" ;;
    esac
    case $want in memcheck|racecheck|synccheck|initcheck)
        if [ -n "$no_tool" ]; then skip "$text" "$no_tool"; continue; fi ;;
    esac
    # (a hand-out whose bug only initcheck always sees, rules.txt's "sanitize ...initcheck": the tool's too)
    case $want:" $(awk '$2 == "sanitize" && $3 ~ /initcheck/ { print $1 }' labs/rules.txt) " in fail:*" ${name%%.*} "*)
        if [ -n "$no_tool" ]; then skip "$text" "$no_tool: its bug is initcheck's to see"; continue; fi ;;
    esac
    lib=$(missing_lib "${name%%.*}")
    if [ -n "$lib" ]; then
        skip "$text" "no $lib here: ${name%%.*} is not built"
        continue
    fi
    if [ "$gpus" -lt "$need" ]; then
        skip "$text" "it shows only on $need GPUs, and this machine has $gpus"
        continue
    fi
    verdict "$name" "$want"
    status=$?
    stopped=$(grep -m 1 -e 'cudaError' -e 'did not finish' -e 'NOT GRADED' "$tmp/$name.out")
    if [ $status != 0 ] && [ -n "$stopped" ]; then
        # On a GPU shared through MPS (make small-gpu) a fault in one process ends every process on the
        # GPU: grades side by side may stop each other. The grade runs again alone, its sanitizer's
        # tools one after another, and that run is the verdict; a file that fails by itself fails again.
        # The server refuses new clients for a moment after such a fault: the grade waits for the GPU
        # to take a program, and a grade the GPU would not take (NOT GRADED, exit 4) is tried again.
        echo "# $name: a run stopped ($(echo "$stopped" | sed 's/^ *//')); graded again alone" >&2
        for try in 1 2 3; do
            gpu_settles
            LAB_NO_TIME=1 LAB_SERIAL=1 sh labs/grade "${name%%.*}" "$file" >"$tmp/$name.out" 2>&1 </dev/null
            echo $? >"$tmp/$name.code"
            grep -q '^grade-verdict NOT GRADED (the \(GPU would not take\|judge could not use\)' "$tmp/$name.out" ||
                break
        done
        verdict "$name" "$want"
        status=$?
    fi
    csv_row "$tmp/$name.out" "$graded_columns" name="$name" want="$want" exit="$(cat "$tmp/$name.code")" \
        >>"$tmp/graded.csv"
    if [ "$(cat "$tmp/$name.code")" = 77 ] && verdict_of "$tmp/$name.out" | grep -q "^not run (.*[^)]"; then
        skip "$text" "$(verdict_of "$tmp/$name.out" | sed 's/^not run (//; s/)$//')"  # a GPU without what the lab needs
        continue
    fi
    ok $status "$text" "$why"
done <"$tmp/list"

# Timed, one at a time: the slow mistakes (right and clean, slower than the target), and the cheats
# that act in the timed runs or need a GPU to be caught.
: >"$tmp/slow_list"
[ -z "$course" ] || grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt |
    awk -v s=" $graded_labs " '$3 == "slow" && index(s, " " $1 " ") { print $1 "." $2 }' >"$tmp/slow_list"
while read -r name; do
    LAB_SANITIZE=0 sh labs/grade "${name%%.*}" "output/labs/mistakes/$name.cu" >"$tmp/slow" 2>&1 </dev/null
    code=$?
    speed=$(sed -n 's/^grade-speed //p' "$tmp/slow")
    [ "$(sed -n 's/^grade-correct //p' "$tmp/slow")" = yes ] && [ "$speed" = slow ]
    ok $? "the mistake $name is right but caught as slow" "exit $code; $(grep -v '^grade-' "$tmp/slow" | tail -n 4)"
    # ... and slow in a hand-out too: its share of the limit under labs/targets.txt's target for this GPU's
    # class (what labs/grade compares without a solution, from the same judge's figures)
    reached=$(sed -n 's/^grade-percent-of-limit //p' "$tmp/slow")
    sms=$(sed -n 's/^grade-device .*, \([0-9][0-9]*\) SMs,.*/\1/p' "$tmp/slow")
    target=$(awk -v l="${name%%.*}" -v c="$([ "${sms:-0}" -ge 64 ] && echo 3 || echo 2)" \
        '!/^#/ && $1 == l { print $c }' labs/targets.txt)
    [ -n "$target" ] && [ -n "$reached" ] && [ "$reached" != - ] && [ "$reached" -lt "$target" ]
    ok $? "the mistake $name is slow in a hand-out too, on this GPU of ${sms:-?} SMs" \
        "its share of the limit ${reached:-?}%, the target ${target:-?}%"
    # A lab timed in several processes (rules.txt "LAB timed N") says so, and times that many.
    n=$(awk -v l="${name%%.*}" '$1 == l && $2 == "timed" { print $3 }' labs/rules.txt)
    [ -z "$n" ] || { medians=$(sed -n "s/^  timed in $n processes of yours .*: medians \(.*\)ms; their mean .*/\1/p" \
                                 "$tmp/slow" | wc -w)
                     [ "$medians" = "$n" ]
                     ok $? "${name%%.*} is timed in $n processes of the file (rules.txt), a median each" \
                        "$medians medians; $(grep -v '^grade-' "$tmp/slow" | tail -n 4)"; }
    csv_row "$tmp/slow" "$graded_columns" name="$name" want=slow exit="$code" sanitizer="not run" \
        verdict="$speed: $(csv_field "$tmp/slow" percent-of-solution)% of the solution (timed without the sanitizers)" \
        >>"$tmp/graded.csv"
done <"$tmp/slow_list"
# The device line names the GPU as the programs' CSV files do (labs/README.md's tables read it).
{ echo "# device: $(csv_device "$tmp"/*.out), $(date -u '+%Y-%m-%d %H:%M') UTC, tests/labs.t"
  cat "$tmp/graded.csv"; } >"${LABS_GRADED_CSV:-output/labs/graded.csv}"
mps=$(nvidia-smi -q 2>/dev/null | grep -c "MPS" || true)
awk -v s=" $graded_labs " '($3 == "gpu" || $3 == "sanitize") && index(s, " " $1 " ")' "$tmp/cheats" >"$tmp/gpu_cheats"
while read -r lab name where expect; do
    if [ "$name" = forever ] && [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ]; then
        # A client killed in the middle of a kernel leaves the MPS server refusing the next ones.
        skip "the cheat $lab.$name" "under MPS a killed kernel stops the server (the grade after it says NOT GRADED)"
        continue
    fi
    # (WHERE "sanitize": a cheat only the sanitizer's run can catch is graded with it)
    LAB_TIMEOUT=15 LAB_SANITIZE=$([ "$where" = sanitize ] && echo 1 || echo 0) \
        sh labs/grade "$lab" "tests/cheats/$lab.$name.cu" >"$tmp/cheat" 2>&1 </dev/null
    code=$?
    [ $code = 1 ] && verdict_of "$tmp/cheat" | grep -q -E -- "$expect"
    ok $? "the cheat $lab.$name fails: $(verdict_of "$tmp/cheat")" \
       "exit $code; want /$expect/; $(grep -v '^grade-' "$tmp/cheat" | tail -n 12)"
done <"$tmp/gpu_cheats"

# Every honest file passes, timed against the course's solution (a hand-out has none).
while read -r lab name rest; do
    [ -z "$(missing_lib "$lab")" ] || { skip "the honest file $lab.$name" "no $(missing_lib "$lab") here"; continue; }
    echo " $graded_labs " | grep -q " $lab " || continue
    sh labs/grade "$lab" "tests/honest/$lab.$name.cu" >"$tmp/out" 2>&1 </dev/null; code=$?
    [ $code = 0 ]
    ok $? "the honest file $lab.$name passes: $(verdict_of "$tmp/out")" \
       "exit $code; $(grep -v '^grade-' "$tmp/out" | tail -n 12)"
done <"$tmp/honest"

# The sandbox: none to be had on a GPU machine is NOT GRADED (exit 4), saying how to install it; the
# runner never starts unsandboxed.
LAB_BWRAP=/nonexistent LAB_NO_TIME=1 sh labs/grade ch1_map ${course:+labs/solutions/ch1_map.cu} >"$tmp/out" 2>&1 \
    </dev/null
code=$?
[ $code = 4 ] && verdict_of "$tmp/out" | grep -q "^NOT GRADED (no sandbox here" &&
    grep -q "apt-get install bubblewrap" "$tmp/out"
ok $? "without bubblewrap, a file on a GPU is NOT GRADED (exit 4), saying how to install it" \
   "exit $code; $(tail -n 12 "$tmp/out")"

# Fail closed: without compute-sanitizer a right file is never PASS.
COMPUTE_SANITIZER=/nonexistent LAB_NO_TIME=1 sh labs/grade ch1_map ${course:+labs/solutions/ch1_map.cu} \
    >"$tmp/out" 2>&1 </dev/null
code=$?
{ [ -n "$course" ] && [ $code = 4 ] && verdict_of "$tmp/out" | grep -q "NOT GRADED"; } ||
    { [ -z "$course" ] && [ $code = 1 ]; }
ok $? "without compute-sanitizer, a right file is NOT GRADED (exit 4), never PASS" \
   "exit $code; $(tail -n 12 "$tmp/out")"
done_testing
