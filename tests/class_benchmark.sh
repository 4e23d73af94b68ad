#!/bin/sh
# The grade book's benchmark: how long a class takes on this machine's GPUs.
#   sh tests/class_benchmark.sh [N [BOOK]]     N students (20), BOOK the book's path (output/labs/class_N)
# A class of N students and every lab (labs/example_class.sh DIR N: solutions, hand-outs and planted
# mistakes in turn) graded by labs/gradebook on the GPUs CUDA_VISIBLE_DEVICES shows; its last line says
# the class, the GPUs, the grades and the seconds from the first build to the book, and BOOK.csv keeps
# every grade's seconds. A benchmark, not a test: exit 0 when the book was written with every file graded.
set -u
n=${1:-20}
book=${2:-output/labs/class_$n}
case $book in /*) ;; *) book=$PWD/$book ;; esac
class=$(mktemp -d)
trap 'rm -rf "$class"' EXIT
sh labs/example_class.sh "$class" "$n" || exit 2
start=$(date +%s)
sh labs/gradebook "$class" "$book"
code=$?
seconds=$(( $(date +%s) - start ))
gpus=$(sed -n '1s/^# device: \(.*\), [0-9-]* [0-9:]* UTC.*/\1/p' "$book.csv" 2>/dev/null)
grades=$(grep -c -v '^#\|^student,' "$book.csv" 2>/dev/null)
echo "class benchmark: $n students, $(make -s --no-print-directory lab-list | wc -w) labs, ${grades:-0} grades" \
    "(the solutions' included) on ${CUDA_VISIBLE_DEVICES:-every GPU} (${gpus:-no device}): $seconds s," \
    "labs/gradebook exit $code"
[ "$code" = 0 ]
