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

# labs/check.sh's own verdicts, with stand-ins for the program and for compute-sanitizer: a tool says
# clean only when its run reached the end. On a GPU shared through MPS one process's fault stops the
# others (make small-gpu met it): a run stopped by a CUDA error, or with no summary, did not finish.
mkdir -p "$tmp/fake"
printf '#!/bin/sh\necho "lab-correct yes"\n' >"$tmp/fake/prog"
cat >"$tmp/fake/compute-sanitizer" <<'EOF'
#!/bin/sh
echo "========= COMPUTE-SANITIZER"
case $FAKE in
clean) echo "========= ERROR SUMMARY: 0 errors" ;;
stopped) echo "lab.c:189: cudaMalloc(&p, 4) failed: cudaErrorIllegalAddress (an illegal memory access was encountered)"
         echo "========= ERROR SUMMARY: 0 errors"; exit 1 ;;
refused_once) [ -f "$FAKE_SEEN.$2" ] && { echo "========= ERROR SUMMARY: 0 errors"; exit 0; }
              : >"$FAKE_SEEN.$2"; echo "no usable CUDA device: MPS server is not ready, cudaErrorMpsServerNotReady"; exit 255 ;;
hang) exit 124 ;;
esac
EOF
chmod +x "$tmp/fake/prog" "$tmp/fake/compute-sanitizer"
for case in "clean:0:clean" "stopped:1:did not finish" "refused_once:0:clean" "hang:1:did not finish"; do
    how=${case%%:*}; want=${case#*:}; field=${want#*:}; want=${want%%:*}
    PATH="$tmp/fake:$PATH" FAKE=$how FAKE_SEEN="$tmp/fake/seen" LAB_NO_TIME=1 LAB_SERIAL=$([ $how = stopped ] || echo 1) \
        sh labs/check.sh fake "$tmp/fake/prog" >"$tmp/fake/out" 2>&1 </dev/null
    code=$?
    [ $code = $want ] && grep -q "^lab-summary fake|yes|$field|" "$tmp/fake/out"
    ok $? "labs/check.sh, compute-sanitizer's runs ending $how: exit $want, sanitizers '$field'" "exit $code; $(tail -n 6 "$tmp/fake/out")"
done

if ! have_gpu; then
    skip "the labs' checks on a GPU" "no GPU"
    done_testing
    exit
fi
# Without compute-sanitizer (a toolkit installed without it) check.sh says "not run" for the tools: the
# solutions must pass the rest, and the mistakes only a tool can catch are skipped, saying so.
sanitizer=clean
command -v compute-sanitizer >/dev/null || sanitizer="not run"
no_tool="no compute-sanitizer on PATH"

# Each check in the background, four at a time (no timing: they may share the GPU), then reported in
# order. A line: NAME KIND WANT, KIND the program's folder, WANT "fail", "pass" or a mistake's report.
{
    for lab in $LABS; do echo "$lab student fail"; echo "$lab solution pass"; done
    grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt | awk '{ print $1 "." $2, "mistake", $3 }' |
        if [ "$sanitizer" = clean ]; then cat; else grep -v -e ' memcheck$' -e ' racecheck$' -e ' synccheck$'; fi
} >"$tmp/list"
# labs/check.sh on each program, its output and exit status kept in $tmp.
# (xargs adds NAME KIND WANT after the folder.)
xargs -P 4 -L 1 sh -c 'LAB_NO_TIME=1 timeout 600 sh labs/check.sh "${2%%.*}" "output/labs/$3/$2" >"$1/$3.$2.out" 2>&1
                       echo $? >"$1/$3.$2.code"' sh "$tmp" <"$tmp/list"
# verdict NAME KIND WANT: whether the check's output in $tmp is what WANT asks; sets why (the details).
verdict() {
    out="$tmp/$2.$1.out"
    code=$(cat "$tmp/$2.$1.code")
    summary=$(sed -n 's/^lab-summary //p' "$out")
    case $3 in
        fail) why="exit $code; $(tail -n 5 "$out")"
              [ "$code" = 1 ] && grep -q "FAIL" "$out" ;;
        pass) why="exit $code; $(tail -n 8 "$out")"
              [ "$code" = 0 ] && echo "$summary" | grep -q "|yes|$sanitizer|" ;;
        wrong) why="exit $code; $summary"
               [ "$code" = 1 ] && echo "$summary" | grep -q "^[^|]*|no|" ;;
        *) why="exit $code; $summary; $(grep "  $3" "$out" | head -n 3)"
           [ "$code" = 1 ] && echo "$summary" | cut -d'|' -f3 | grep -q "$3" ;;
    esac
}
while read -r name kind want; do
    case $want in
        fail) text="labs/$name.cu as handed out fails cleanly" ;;
        pass) text="the solution of $name passes, sanitizers $sanitizer" ;;
        wrong) text="the mistake $name is caught by the result check" ;;
        slow) LAB_SANITIZE=0 sh labs/check.sh "${name%%.*}" "output/labs/mistake/$name" "output/labs/solution/${name%%.*}" \
                  >"$tmp/$kind.$name.out" 2>&1 </dev/null
              code=$?
              [ "$code" = 3 ]; ok $? "the mistake $name is correct but caught as slow" "exit $code; $(tail -n 4 "$tmp/$kind.$name.out")"
              continue ;;
        *) text="the mistake $name is caught by $want" ;;
    esac
    verdict "$name" "$kind" "$want"
    status=$?
    stopped=$(grep -m 1 -e ' failed: cuda' -e '^no usable CUDA device' -e 'did not finish' "$tmp/$kind.$name.out")
    if [ $status != 0 ] && [ -n "$stopped" ]; then
        # A run stopped by a CUDA error. On a GPU shared through MPS (make small-gpu), a fault in one
        # process ends every process on the GPU: the four checks at a time above then stop each other.
        # The check runs again alone, its tools one after another, and that run is the verdict; a check
        # that fails by itself fails again.
        echo "# $kind $name: a run stopped ($(echo "$stopped" | sed 's/^ *//')); checked again alone" >&2
        LAB_NO_TIME=1 LAB_SERIAL=1 timeout 600 sh labs/check.sh "${name%%.*}" "output/labs/$kind/$name" \
            >"$tmp/$kind.$name.out" 2>&1 </dev/null
        echo $? >"$tmp/$kind.$name.code"
        verdict "$name" "$kind" "$want"
        status=$?
    fi
    ok $status "$text" "$why"
done <"$tmp/list"
if [ "$sanitizer" != clean ]; then
    grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt | awk '$3 ~ /^(memcheck|racecheck|synccheck)$/' |
        while read -r lab name tool rest; do skip "the mistake $lab.$name is caught by $tool" "$no_tool"; done
fi
done_testing
