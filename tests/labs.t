#!/bin/sh
# The labs work (labs/README.md). Everywhere: every lab has its student file (opening with its
# statement), its harness and, in the course, its solution and at least two planted mistakes, each of
# which changes the solution (make test has built them all). On a GPU, through labs/check.sh without the
# timing: every student file as handed out fails cleanly (exit 1, a FAIL line, within the time limit);
# every solution passes, compute-sanitizer clean; every planted mistake fails, caught by the report
# that mistakes.txt names ("wrong": the result check; or memcheck, racecheck, synccheck), except the
# "slow" ones, which must pass every check and then, timed alone after the others, be too slow.
. tests/tap.sh
[ -n "${LABS:-}" ] || { echo "Bail out! LABS is empty: run through 'make test'"; exit 1; }
for lab in $LABS; do
    head -n 1 "labs/$lab.cu" | grep -q "^/\* Lab $lab: "
    ok $? "labs/$lab.cu opens with its statement" "first line: $(head -n 1 "labs/$lab.cu")"
    [ -f "labs/harness/$lab.cu" ]; ok $? "labs/harness/$lab.cu exists"
    [ -x "output/labs/student/$lab" ]; ok $? "labs/$lab.cu builds with its harness"
    [ -d labs/solutions ] || continue  # a hand-out
    [ -x "output/labs/solution/$lab" ]; ok $? "labs/solutions/$lab.cu builds with its harness"
    planted=$(awk -v l="$lab" '$1 == l' labs/solutions/mistakes.txt | wc -l)
    [ "$planted" -ge 2 ]; ok $? "$lab has at least two planted mistakes" "$planted in labs/solutions/mistakes.txt"
done
[ -d labs/solutions ] || { echo "# a hand-out: no solutions, so no planted mistakes to check"; done_testing; exit; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mistake in ${LAB_MISTAKES:-}; do
    sh labs/plant.sh "$mistake" "$tmp/$mistake.cu" 2>"$tmp/err"
    ok $? "the mistake $mistake changes its solution" "$(cat "$tmp/err")"
    [ -x "output/labs/mistake/$mistake" ]; ok $? "the mistake $mistake builds"
done

if ! have_gpu; then
    skip "the labs' checks on a GPU" "no GPU"
    done_testing
    exit
fi
command -v compute-sanitizer >/dev/null || { echo "Bail out! compute-sanitizer not on PATH"; exit 1; }

# Each check in the background, four at a time (no timing: they may share the GPU), then reported in
# order. A line: NAME KIND WANT, KIND the program's folder, WANT "fail", "pass" or a mistake's report.
{
    for lab in $LABS; do echo "$lab student fail"; echo "$lab solution pass"; done
    grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt | awk '{ print $1 "." $2, "mistake", $3 }'
} >"$tmp/list"
# labs/check.sh on each program, its output and exit status kept in $tmp.
# (xargs adds NAME KIND WANT after the folder.)
xargs -P 4 -L 1 sh -c 'LAB_NO_TIME=1 timeout 600 sh labs/check.sh "${2%%.*}" "output/labs/$3/$2" >"$1/$3.$2.out" 2>&1
                       echo $? >"$1/$3.$2.code"' sh "$tmp" <"$tmp/list"
while read -r name kind want; do
    out="$tmp/$kind.$name.out"
    code=$(cat "$tmp/$kind.$name.code")
    summary=$(sed -n 's/^lab-summary //p' "$out")
    case $want in
        fail) [ "$code" = 1 ] && grep -q "FAIL" "$out"
              ok $? "labs/$name.cu as handed out fails cleanly" "exit $code; $(tail -n 5 "$out")" ;;
        pass) [ "$code" = 0 ] && echo "$summary" | grep -q '|yes|clean|'
              ok $? "the solution of $name passes, sanitizers clean" "exit $code; $(tail -n 8 "$out")" ;;
        wrong) [ "$code" = 1 ] && echo "$summary" | grep -q "^[^|]*|no|"
               ok $? "the mistake $name is caught by the result check" "exit $code; $summary" ;;
        slow) LAB_SANITIZE=0 sh labs/check.sh "${name%%.*}" "output/labs/mistake/$name" "output/labs/solution/${name%%.*}" \
                  >"$out" 2>&1
              code=$?
              [ "$code" = 3 ]; ok $? "the mistake $name is correct but caught as slow" "exit $code; $(tail -n 4 "$out")" ;;
        *) [ "$code" = 1 ] && echo "$summary" | cut -d'|' -f3 | grep -q "$want"
           ok $? "the mistake $name is caught by $want" "exit $code; $summary; $(grep "  $want" "$out" | head -n 3)" ;;
    esac
done <"$tmp/list"
done_testing
