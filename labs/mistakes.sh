#!/bin/sh
# make lab-mistakes [CSV=FILE]: every planted mistake of labs/solutions/mistakes.txt through labs/check.sh,
# as tests/labs.t checks them: four at a time without timing, then the "slow" ones alone, timed against
# their solution. A line each (caught or not, and what make lab said); CSV=FILE also writes the table
# that labs/README.md renders. Exit 0 when each mistake was caught by the report it is planted for.
set -u
[ -f labs/solutions/mistakes.txt ] || { echo "make lab-mistakes: a hand-out has no solutions, so no planted mistakes"; exit 0; }
nvidia-smi -L >/dev/null 2>&1 || { echo "make lab-mistakes: no GPU here; the mistakes are built, not checked"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grep -v '^[[:space:]]*\(#\|$\)' labs/solutions/mistakes.txt | awk '{ print $1 "." $2, $3 }' >"$out/list"
# (xargs adds NAME REPORT after the folder.)
awk '$2 != "slow"' "$out/list" | xargs -P 4 -L 1 sh -c \
    'LAB_NO_TIME=1 timeout 600 sh labs/check.sh "${2%%.*}" "output/labs/mistake/$2" >"$1/$2.out" 2>&1 </dev/null
     echo $? >"$1/$2.code"' sh "$out"
status=0
while read -r name report; do
    if [ "$report" = slow ]; then
        LAB_SANITIZE=0 sh labs/check.sh "${name%%.*}" "output/labs/mistake/$name" "output/labs/solution/${name%%.*}" \
            >"$out/$name.out" 2>&1 </dev/null
        echo $? >"$out/$name.code"
    fi
    code=$(cat "$out/$name.code")
    summary=$(sed -n 's/^lab-summary //p' "$out/$name.out")
    correct=$(echo "$summary" | cut -d'|' -f2)
    sanitizer=$(echo "$summary" | cut -d'|' -f3)
    verdict=$(echo "$summary" | cut -d'|' -f6)
    case $report in
        wrong) [ "$code" = 1 ] && [ "$correct" = no ] ;;
        slow) [ "$code" = 3 ] && sanitizer="not run" && verdict="$verdict ($(echo "$summary" | cut -d'|' -f5) of the solution)" ;;
        *) [ "$code" = 1 ] && echo "$sanitizer" | grep -q "$report" ;;
    esac
    if [ $? = 0 ]; then caught=caught; else caught="NOT CAUGHT"; status=1; fi
    printf '  %-40s %-10s %-11s %s\n' "$name" "$report" "$caught" "${verdict:-no report (exit $code)}"
    echo "$name,$report,$correct,$(echo "$sanitizer" | tr ',' ';'),$(echo "$verdict" | tr ',' ';')" >>"$out/rows"
done <"$out/list"
if [ -n "${CSV:-}" ]; then
    # The CSV opens as the labs' tables do: a line naming the device (from the first report) and the date.
    device=$(sed -n 's/^device [0-9]*: \([^,]*, compute capability [0-9.]*\),.*/\1/p' "$out"/*.out | head -n 1)
    { echo "# device: ${device:-unknown}, $(date -u '+%Y-%m-%d %H:%M') UTC"
      echo "mistake,expected,correct,sanitizer,verdict"
      grep -v ',slow,' "$out/rows" | sort -t, -k1,1
      grep ',slow,' "$out/rows"; } >"$CSV.tmp" && mv "$CSV.tmp" "$CSV" && echo "table written to $CSV"
fi
exit $status
