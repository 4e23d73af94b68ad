#!/bin/sh
# make labs: every lab checked in turn (labs/check.sh), one report each in output/labs/reports/, then one
# table. sh labs/table.sh KIND LAB... where KIND is student (the files in labs/) or solution.
# CSV=FILE also writes the table as CSV, for a grade book. Exit 0 when every lab is PASS.
set -u
kind=$1
shift
mkdir -p output/labs/reports
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
status=0
start=$(date +%s)
for lab in "$@"; do
    t0=$(date +%s)
    solution=output/labs/solution/$lab
    [ -x "$solution" ] || solution=""
    sh labs/check.sh "$lab" "output/labs/$kind/$lab" $solution >"output/labs/reports/$lab.txt" 2>&1
    code=$?
    [ $code = 0 ] || status=1
    line=$(sed -n 's/^lab-summary //p' "output/labs/reports/$lab.txt")
    [ -n "$line" ] || line="$lab|?|?|-|-|FAIL (check.sh ended with exit $code)|"
    echo "$line|$(( $(date +%s) - t0 )) s" >>"$rows"
    echo "$line" | awk -F'|' '{ printf "  %-18s %s\n", $1, $6 }'
done
echo
echo "make labs ($kind files, $(( $(date +%s) - start )) s; reports in output/labs/reports/):"
{ echo "lab|correct|sanitizer|time|% of solution|verdict|of the limit|checked in"; cat "$rows"; } |
    awk -F'|' '{ printf "%-18s %-7s %-10s %-11s %-13s %-20s %-38s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
if [ -n "${CSV:-}" ]; then
    # The CSV opens as the programs' do: a line naming the device (from the first report) and the date.
    device=$(sed -n 's/^device [0-9]*: \([^,]*, compute capability [0-9.]*\), \([0-9]* SMs\).*/\1, \2/p' \
             output/labs/reports/*.txt | head -n 1)
    { echo "# device: ${device:-unknown}, $(date -u '+%Y-%m-%d %H:%M') UTC"
      echo "lab,correct,sanitizer,time,percent_of_solution,verdict,of_the_limit,seconds"
      tr ',' ';' <"$rows" | tr '|' ','; } >"$CSV.tmp" && mv "$CSV.tmp" "$CSV" && echo "table written to $CSV"
fi
exit $status
