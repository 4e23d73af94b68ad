#!/bin/sh
# run.sh SECONDS: each libFuzzer harness for SECONDS, from the committed seed corpus (tests/fuzz/corpus/),
# new inputs kept in a scratch corpus. A finding stops with exit 1 and leaves its input in output/fuzz/.
# A harness must make nothing in the working folder: what it makes there fails the run.
set -u
seconds=${1:-60}
mkdir -p output/fuzz
status=0
before=$(ls -A | wc -l)
for harness in pnm cli; do
    work=$(mktemp -d)
    echo "fuzz_$harness: $seconds s from $(ls tests/fuzz/corpus/$harness | wc -l) seeds"
    # -close_fd_mask=3: the parser's usage text would flood the log. -rss_limit_mb: the reader must
    # never allocate what a header claims.
    if ! ./tests/fuzz/fuzz_$harness -max_total_time="$seconds" -close_fd_mask=3 -rss_limit_mb=1024 \
            -print_final_stats=1 -artifact_prefix=output/fuzz/$harness- "$work" tests/fuzz/corpus/$harness \
            2>output/fuzz/$harness.log; then
        echo "fuzz_$harness: FOUND A PROBLEM; see output/fuzz/$harness.log"
        tail -n 30 output/fuzz/$harness.log
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" output/fuzz/$harness.log | sed 's/^/  /'
    fi
    rm -rf "$work"
done
if [ "$(ls -A | wc -l)" != "$before" ]; then
    echo "fuzz: the harnesses made $(( $(ls -A | wc -l) - before )) entries in $(pwd) (see git status --ignored)"
    status=1
fi
exit $status
