# labs/steps/speed.sh: step 3 of labs/grade (sourced): the file's median against the course's solution's,
# timed by the same judge just before and after it, and against the limit that binds.
step_speed() {
    echo "3. Speed"
    # A lab timed in N processes (read above): each of the file's between two of the solution's, the means compared.
    time_solution() {  # time_solution OUT: the course's solution, timed by the same judge as the file
        judge_run "$1" time --time -- "$solution_runner" ||
            { shown "$1"
              grade "NOT GRADED (the course's solution failed its timed runs: try again)" 4 yes "$sanitizer"; }
    }
    # A file that is the course's solution, byte for byte (make labs SOLUTIONS=1, a student who hands it
    # in): its own times are the solution's, and the solution is not timed again beside it.
    itself=no
    [ ! -f "$solution_file" ] || [ "$(sha256sum <"$solution_file" | cut -c1-64)" != "$sum" ] || itself=yes
    if [ $itself = yes ]; then
        :
    elif [ -n "${LAB_SOLUTION_MS:-}" ] && [ -f "$solution_file" ]; then
        # labs/gradebook times the solution once for a whole class, on the same GPU, and passes its median.
        case $LAB_SOLUTION_MS in
            *[!0-9.]*|'') echo "labs/grade: LAB_SOLUTION_MS='$LAB_SOLUTION_MS': a time in ms" >&2; exit 2 ;;
        esac
        echo "judge-median-ms $LAB_SOLUTION_MS" >"$tmp/solution.0"
    elif [ -f "$solution_file" ]; then
        # The course's solution, built like any file (and cached), timed before yours by the same judge
        # (and again after it, below).
        solution_runner=$(build_solution) ||
            { cat "$tmp/build.out"
              grade "NOT GRADED (the course's solution does not build: the course's fault)" 4 yes "$sanitizer"; }
        time_solution "$tmp/solution.0"
    fi
    round=1
    while [ $round -le "$processes" ]; do
        judge_run "$tmp/time.$round" time --time -- "$runner"
        code=$?
        { [ $round = 1 ] || [ $code != 0 ]; } && shown "$tmp/time.$round"  # (the first report, or one that failed)
        if grep -q '^judge-untimed ' "$tmp/time.$round" && [ $code = 0 ]; then  # a lab judged on its results alone
            grade "$pass" $pass_code yes "$sanitizer"
        fi
        if [ $code != 0 ]; then
            gpu_refused "$tmp/time.$round" && grade "$busy" 4 yes "$sanitizer"
            case $(field failure "$tmp/time.$round") in
                timeout*) grade "FAIL (over $timeout_s s in the timed runs: a kernel that never ends?)" 1 yes \
                    "$sanitizer" ;;
                outside) grade "FAIL (work done before the timed call, not in it)" 1 yes "$sanitizer" ;;
                *) grade "FAIL (a timed run failed)" 1 yes "$sanitizer" ;;
            esac
        fi
        # The solution again right after yours: a GPU's speed drifts over a grade (the first timed process
        # after the sanitizers often runs slower), and the mean of its runs before and after yours cancels it.
        [ ! -f "$solution_file" ] || [ -n "${LAB_SOLUTION_MS:-}" ] || [ $itself = yes ] ||
            time_solution "$tmp/solution.$round"
        round=$((round + 1))
    done
    mean_of() {  # mean_of FIELD FILES...: the mean of the judge's FIELD over those reports; 1 if one has none
        key=$1; shift
        for report in "$@"; do field "$key" "$report"; done |
            awk -v want=$# '$1 + 0 == $1 { s += $1; n++ } END { if (n != want) exit 1; printf "%.17g", s / n }'
    }
    mine=$(mean_of median-ms "$tmp"/time.[0-9]*) && percent_limit=$(mean_of percent-of-limit "$tmp"/time.[0-9]*) ||
        grade "NOT GRADED (the judge gave no time: the course's fault)" 4 yes "$sanitizer"
    percent_limit=$(awk -v p="$percent_limit" 'BEGIN { printf "%.0f", p }')
    # (the judge's clock, for whoever reads the report's grade-clock-ms: the messages before each call, the
    # part of them counted in the call as work done before it, the round trip subtracted; labs/judge/timed.c)
    clock_line="touch $(mean_of touch-ms "$tmp"/time.[0-9]*) outside $(mean_of outside-ms "$tmp"/time.[0-9]*)"
    clock_line="$clock_line round-trip $(mean_of round-trip-ms "$tmp"/time.[0-9]*)"
    clock_line="$clock_line own $(mean_of own-round-trip-ms "$tmp"/time.[0-9]*)"
    if [ "$processes" -gt 1 ]; then
        echo "  timed in $processes processes of yours (a process's speed at this lab is set when it starts): medians" \
            "$(for k in $(seq "$processes"); do field median-ms "$tmp/time.$k"; done | tr '\n' ' ')ms; their mean $(
               awk -v a="$mine" 'BEGIN { printf "%.3f", a }') ms"
    fi
    limit_name=$(field limit "$tmp/time.1")
    # The hand-out's target for this GPU's class (labs/targets.txt: SMALL under 64 SMs, LARGE from 64).
    sms=$(sed -n 's/.*, \([0-9][0-9]*\) SMs,.*/\1/p' "$tmp/device")
    handout_class="${sms:-?} SMs: $([ "${sms:-0}" -lt 64 ] && echo "under 64" || echo "64 or more")"
    handout_target=$(awk -v l="$lab" -v big="$([ "${sms:-0}" -ge 64 ] && echo 1)" \
        '!/^#/ && $1 == l { print (big ? $3 : $2) }' "$root/labs/targets.txt")
    time_ms=$(awk -v a="$mine" 'BEGIN { printf "%.3f", a }')
    if [ $itself = yes ]; then
        theirs=$mine
        echo "  this file is the course's solution (the same bytes): its times are the solution's, not timed twice"
    fi
    if [ -f "$solution_file" ]; then
        [ $itself = yes ] || theirs=$(mean_of median-ms "$tmp"/solution.[0-9]*) ||
            grade "NOT GRADED (the judge gave no time for the course's solution: the course's fault)" 4 yes "$sanitizer"
        if [ $itself = yes ]; then
            when="$(awk -v b="$theirs" 'BEGIN { printf "%.3f", b }') ms, this file's"
        elif [ "$processes" -gt 1 ] && [ -f "$tmp/solution.1" ]; then
            when="$(awk -v b="$theirs" 'BEGIN { printf "%.3f", b }') ms, the mean of the $((processes + 1)) processes"
            when="$when between and around yours"
        elif [ -f "$tmp/solution.1" ]; then
            when=$(awk -v b="$(field median-ms "$tmp/solution.0")" -v c="$(field median-ms "$tmp/solution.1")" \
                'BEGIN { printf "%.3f ms before yours, %.3f ms after", b, c }')
        else
            when="$(awk -v b="$theirs" 'BEGIN { printf "%.3f", b }') ms"
            when="$when${LAB_SOLUTION_MS:+ (timed before, by labs/gradebook)}"
        fi
        percent=$(awk -v a="$mine" -v b="$theirs" 'BEGIN { printf "%.0f", (a > 0 ? 100 * b / a : 0) }')
        echo "  the course's solution: median $when;" \
            "yours runs at $percent% of its speed (target: $target%)"
        [ -z "$handout_target" ] || echo "  (in a hand-out, without the solution, the target on this GPU" \
            "($handout_class) is $handout_target% of the limit; yours reaches $percent_limit%)"
        rule="$target% of the solution"
    else
        # A hand-out without solutions: the lab's target is a share of the limit instead (labs/targets.txt).
        percent=$percent_limit
        target=$handout_target
        echo "  no solution here (a hand-out): the target on this GPU ($handout_class) is ${target:-?}% of the" \
            "limit; yours reaches $percent%"
        rule="$target% of the limit"
        percent_solution="-"
    fi
    speed=fast
    [ "$percent" -ge "${target:-0}" ] || speed=slow
    [ $speed = fast ] ||
        echo "  correct, but slower than the target ($rule): the statement says what makes the solution fast"
    [ $pass_code = 4 ] &&
        grade "$pass" 4 yes "$sanitizer" "$time_ms" "${percent_solution-$percent}" "$percent_limit" "$limit_name" $speed
    if [ $speed = fast ]; then
        step_profile  # (LAB_PROFILE=1: what binds it, labs/steps/counters.sh)
        grade "PASS" 0 yes "$sanitizer" "$time_ms" "${percent_solution-$percent}" "$percent_limit" "$limit_name" $speed
    fi
    step_mark counters
    step_counters  # 4. the counters that say why (labs/steps/counters.sh)
    step_profile
    grade "PASS but slow" 3 yes "$sanitizer" "$time_ms" "${percent_solution-$percent}" "$percent_limit" \
        "$limit_name" $speed
}
