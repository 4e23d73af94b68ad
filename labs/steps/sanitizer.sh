# labs/steps/sanitizer.sh: step 2 of labs/grade (sourced): compute-sanitizer's memcheck, racecheck and
# synccheck (and initcheck, where the lab's rules add it) on the judge's small sizes and one larger size
# drawn for the grade; their findings, and the verdict of steps 1 and 2 together.
sanitizer_path=$(setting sanitizer)
no_sanitizer=$(rules_for sanitize | awk -F"$tab" '$1 == "none" { print $2 }')
# rules.txt "LAB sanitize TOOLS REASON", TOOLS comma-separated: exactly those tools, the reason said with
# the tools left out of the three ("memcheck only: ...") or added to them ("initcheck too: ...": reads of
# memory never written, which only a lab about them asks for). A tool of another name stops the grade.
default_tools="memcheck racecheck synccheck"
listed=$(rules_for sanitize | awk -F"$tab" '$1 != "none" { gsub(",", " ", $1); print $1 }')
reason=$(rules_for sanitize | awk -F"$tab" '$1 != "none" { print $2 }')
for tool in $listed; do
    case $tool in
        memcheck|racecheck|synccheck|initcheck) ;;
        *) echo "labs/grade: rules.txt: '$lab sanitize $tool'? (memcheck, racecheck, synccheck or initcheck)" >&2
           exit 2 ;;
    esac
done
lab_tools=${listed:-$default_tools}
added=$(for t in $lab_tools; do case " $default_tools " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac; done)
dropped=$(for t in $default_tools; do case " $lab_tools " in *" $t "*) ;; *) printf '%s ' "$t" ;; esac; done)
tools=$lab_tools
[ -z "$no_sanitizer" ] && [ "${LAB_SANITIZE:-1}" != 0 ] && [ -x "$sanitizer_path" ] || tools=""
joined() {  # joined WORD...: "a", "a and b", "a, b and c"
    [ $# -gt 1 ] || { printf '%s' "${1:-}"; return; }
    joined_list=$1; shift
    while [ $# -gt 1 ]; do joined_list="$joined_list, $1"; shift; done
    printf '%s and %s' "$joined_list" "$1"
}
sanitize() {  # sanitize TOOL: the judge's --small sizes, the runner under the tool (in the sandbox, the tool too),
    # its report in $tmp/out.TOOL/log
    # (CUDA calls that fail are step 1's to judge, and NCCL's probes fail on purpose: unreported,
    # they do not make the tool's exit status 86, which then means a finding)
    # (one larger size drawn for memcheck, synccheck and initcheck; racecheck, which watches every
    # shared-memory access and takes minutes on a large product, the small sizes alone)
    judge_pick=$([ "$1" = racecheck ] || echo "$pick")
    judge_run "$tmp/$1.judge" "$1" --small -- "$sanitizer_path" --tool "$1" --log-file "$tmp/out.$1/log" \
        --report-api-errors no --error-exitcode 86 "$runner"
    echo $? >"$tmp/$1.code"
    unset judge_pick
}
run_tools() {  # the tools side by side (LAB_SERIAL=1: a GPU shared through MPS, where one process's fault
    # stops the others: one after another), and whatever else runs in the background, to their ends
    for tool in $tools; do if [ "${LAB_SERIAL:-0}" = 1 ]; then sanitize "$tool"; else sanitize "$tool" & fi; done
    wait
}

verbose_report() {  # verbose_report TOOL: LAB_VERBOSE=1, the tool's whole report, after the sizes it ran
    # (the judge's lines for that run); the seed that replays them ends the report
    echo "  ---- $1: the sizes it ran (the judge's lines) ----"
    shown "$tmp/$1.judge" | sed 's/^/  | /'
    echo "  ---- $1: its whole report (compute-sanitizer --tool $1; the same inputs again: SEED= below) ----"
    sed 's/^/  | /' "$tmp/out.$1/log"
    echo "  ---- end of $1's report ----"
}
say_tools() {  # step 2's first lines: the lab's tools as they run (racecheck on the small sizes only), and
    # those its rules.txt line leaves out or adds, with its reason (tests/grade.t reads them)
    wide=$(for t in $lab_tools; do [ "$t" = racecheck ] || printf '%s ' "$t"; done)
    line="2. compute-sanitizer:"
    # shellcheck disable=SC2086 # (the tools' names, one word each)
    [ -z "$wide" ] || line="$line $(joined $wide) on the small sizes and one larger size drawn for this grade"
    case " $lab_tools " in *" racecheck "*) line="$line${wide:+,} racecheck on the small sizes" ;; esac
    echo "$line"
    # shellcheck disable=SC2086
    if [ -n "$added" ]; then
        echo "  $(joined $added) too${dropped:+, $(joined $dropped) left out}: $reason"
    elif [ -n "$listed" ]; then
        echo "  $(joined $listed) only: $reason"
    fi
}
step_sanitizer() {
    say_tools
    findings=0 kinds="" unfinished="" refused="" sanitizer=clean
    if [ -n "$no_sanitizer" ]; then
        echo "  not part of this lab: $no_sanitizer"
        sanitizer="not part of this lab"
    elif [ "${LAB_SANITIZE:-1}" = 0 ]; then
        echo "  left out (LAB_SANITIZE=0)"
        sanitizer="not run"
    elif [ ! -x "$sanitizer_path" ]; then
        echo "  compute-sanitizer was not found (it comes with the CUDA Toolkit, beside nvcc): races and out-of-bounds"
        echo "  accesses went unchecked, so this file cannot be graded PASS here"
        sanitizer="not run (no compute-sanitizer)"
    else
        [ $beside = yes ] || run_tools
        for tool in $tools; do
            # A tool says clean only when it ran the program to its end: its summary is in its report, the
            # tool itself ended with exit 0 (the report is written in a folder the program sees too: the
            # tool's own status is what a program cannot rewrite, only stop), and the program met no CUDA
            # error, no crash and no time-out that step 1 did not meet too.
            [ -f "$tmp/out.$tool/log" ] || : >"$tmp/out.$tool/log"
            awk -v here="$(dirname "$runner")/" -f "$here/findings.awk" "$tmp/out.$tool/log" >"$tmp/$tool.lines"
            how=$(field failure "$tmp/$tool.judge")
            # (a tool that says it found errors, by its exit status, when its report shows none: a finding)
            [ -s "$tmp/$tool.lines" ] || [ "$(field runner-exit "$tmp/$tool.judge")" != 86 ] ||
                echo "errors its report does not show (it ended with its error status, 86)" >"$tmp/$tool.lines"
            if gpu_refused "$tmp/$tool.judge"; then  # (the tool then says the program "didn't terminate successfully")
                refused="$refused $tool"
                echo "  $tool: not run, the GPU would not take the program just then"
            elif grep -q -v '^Internal Sanitizer Error' "$tmp/$tool.lines"; then
                findings=$((findings + 1))
                kinds="$kinds $tool"
                grep -v '^Internal Sanitizer Error' "$tmp/$tool.lines" | sed "s/^/  $tool: /" | head -n 5
                [ "${LAB_VERBOSE:-0}" != 1 ] || verbose_report "$tool"
            elif [ -n "$how" ] && [ "$correct" = no ] && [ "$how" = "$failure" ]; then
                echo "  $tool: could not finish, the program stops as in step 1"
            elif [ -n "$how" ] || ! grep -q 'SUMMARY: ' "$tmp/out.$tool/log" ||
                 [ "$(field runner-exit "$tmp/$tool.judge")" != 0 ]; then
                unfinished="$unfinished $tool"
                why=$how
                grep -q 'SUMMARY: ' "$tmp/out.$tool/log" || why=${why:-no summary from the tool}
                ended=$(field runner-exit "$tmp/$tool.judge")
                why=${why:-the tool did not end with exit 0: ${ended:-killed}}
                echo "  $tool: did not finish ($why; the judge's last lines:)"
                tail -n 3 "$tmp/$tool.judge" | sed 's/^/    /'
                [ "${LAB_VERBOSE:-0}" != 1 ] || verbose_report "$tool"
                [ "$how" != cuda ] || echo "    (step 1 met no such error: on a GPU shared through MPS," \
                    "another process's fault stops them all; LAB_SERIAL=1)"
            else
                echo "  $tool: clean"
            fi
        done
        grep -q 'Race reported' "$tmp/out.racecheck/log" 2>/dev/null &&
            echo "  hint: racecheck found threads touching the same shared memory with no __syncthreads() between them"
        grep -q 'Uninitialized' "$tmp/out.initcheck/log" 2>/dev/null &&
            echo "  hint: initcheck found reads of memory that nothing wrote after its cudaMalloc: a memset, a copy" \
                "or a kernel must write every byte before it is read"
        [ -z "$unfinished" ] || sanitizer="did not finish"
        [ $findings = 0 ] || sanitizer=$(echo $kinds | tr ' ' ',')
    fi
    # A write past the end of a buffer, seen in step 1 by the guard of poison the runner puts after each
    # (labs/judge/channel.c), where memcheck saw none: at a size memcheck did not run, or by a file that
    # behaves otherwise under the tool. A finding, with or without the tools.
    past=$(field past-end "$tmp/check")
    case " $kinds " in *" memcheck "*) past="" ;; esac
    if [ -n "$past" ]; then
        echo "  guard: step 1 found a write past the end of a buffer ($past), which memcheck did not see"
        echo "    (memcheck runs the small sizes and one larger one: the write is at another size, or the file"
        echo "    behaves otherwise when the tool watches it)"
        findings=$((findings + 1))
        kinds="$kinds guard"
        sanitizer=$(echo $kinds | tr ' ' ',')
    fi

    # a right file whose tools the GPU would not take is not graded: neither clean nor a finding
    [ $correct != yes ] || [ $findings != 0 ] || [ -n "$unfinished" ] || [ -z "$refused" ] ||
        grade "$busy" 4 yes "not run"
    if [ $correct != yes ] || [ $findings != 0 ] || [ -n "$unfinished" ]; then
        why=""
        [ $correct = yes ] || why=$wrong
        [ $findings = 0 ] || why="${why:+$why; }$(echo $kinds | tr ' ' ',')"
        [ -z "$unfinished" ] || why="${why:+$why; }$(echo $unfinished | tr ' ' ',') did not finish"
        grade "FAIL ($why)" 1 "$correct" "$sanitizer"
    fi
    # Right and clean: PASS, unless the sanitizer did not run: then the races are unchecked, and the grade
    # is not given (fail closed).
    pass=PASS pass_code=0
    case $sanitizer in
        "not run"*) pass="NOT GRADED (right, but compute-sanitizer did not run: races and bounds unchecked)"
                    pass_code=4 ;;
    esac
    [ "${LAB_NO_TIME:-0}" = 1 ] && grade "$pass" $pass_code yes "$sanitizer"

}
