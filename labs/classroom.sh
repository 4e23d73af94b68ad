#!/bin/sh
# labs/classroom.sh: GitHub Classroom's autograding configuration, one test a lab, each grading the
# student's labs/LAB.cu with labs/grade (its exit status is the test's result: 0 is PASS, anything else
# is not), within 10 minutes. make classroom writes it to .github/classroom/autograding.json;
# tests/labs.t checks that it is up to date with the Makefile's LABS.
#   sh labs/classroom.sh LAB...
set -eu
printf '{\n  "tests": [\n'
sep=""
for lab in "$@"; do
    printf '%s    {\n      "name": "%s",\n      "setup": "make -s lab-programs",\n' "$sep" "$lab"
    printf '      "run": "LAB_TIMEOUT=60 sh labs/grade %s labs/%s.cu",\n' "$lab" "$lab"
    printf '      "input": "",\n      "output": "",\n      "comparison": "included",\n'
    printf '      "timeout": 10,\n      "points": 1\n    }'
    sep=",
"
done
printf '\n  ]\n}\n'
