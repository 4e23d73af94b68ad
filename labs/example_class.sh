#!/bin/sh
# labs/example_class.sh DIR: a made-up class for labs/gradebook, from the course's own files: four
# students, four labs (ch1_map, ch2_block_sum, ch4_histogram, ch5_tiled). ada hands in the solutions;
# bo the files as handed out; cy each lab's first planted mistake; di the solutions but for the
# histogram, where the planted slow one (global atomics) stands in. On a GPU machine, `sh
# labs/example_class.sh output/class && make gradebook SUBMISSIONS=output/class BOOK=output/labs/example_class`
# shows what an instructor gets: output/labs/example_class.csv, .md and .png. Its run on an H200 is
# committed: figures/data/labs/example_class.csv and .md, and figures/labs_example_class.png.
#   sh labs/example_class.sh DIR N   a class of N students and every lab, for the grade book's benchmark: each
#   student's file of each lab is, in turn, the solution, the hand-out, a planted mistake (the next of the
#   lab's, in mistakes.txt's order) and the solution again (student S, lab L: the (S + L)th of the four).
set -eu
dir=${1:?usage: labs/example_class.sh DIR [N]}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
[ -d "$root/labs/solutions" ] ||
    { echo "labs/example_class.sh: needs the course's solutions (not a hand-out)" >&2; exit 2; }
if [ -n "${2:-}" ]; then
    case $2 in ''|*[!0-9]*|0) echo "labs/example_class.sh: N='$2': a number of students" >&2; exit 2 ;; esac
    labs=$(make -s -C "$root" --no-print-directory lab-list)
    s=1
    while [ "$s" -le "$2" ]; do
        student=$(printf 'student%02d' "$s")
        mkdir -p "$dir/$student"
        l=0
        for lab in $labs; do
            l=$((l + 1))
            case $(( (s + l) % 4 )) in
                1) cp "$root/labs/$lab.cu" "$dir/$student/" ;;
                2) mistakes=$(awk -v l="$lab" '$1 == l { print $2 }' "$root/labs/solutions/mistakes.txt")
                   count=$(echo $mistakes | wc -w)
                   if [ "$count" -gt 0 ]; then
                       name=$(echo $mistakes | cut -d' ' -f$(( (s / 4) % count + 1 )))
                       (cd "$root" && sh labs/plant.sh "$lab.$name" "$dir/$student/$lab.cu")
                   else cp "$root/labs/$lab.cu" "$dir/$student/"; fi ;;
                *) cp "$root/labs/solutions/$lab.cu" "$dir/$student/" ;;
            esac
        done
        s=$((s + 1))
    done
    echo "$dir: $2 students, $(echo $labs | wc -w) labs each"
    exit 0
fi
mkdir -p "$dir/ada" "$dir/bo" "$dir/cy" "$dir/di"
for lab in ch1_map ch2_block_sum ch4_histogram ch5_tiled; do
    cp "$root/labs/solutions/$lab.cu" "$dir/ada/"
    cp "$root/labs/$lab.cu" "$dir/bo/"
    first=$(awk -v l="$lab" '$1 == l && $3 != "slow" { print $2; exit }' "$root/labs/solutions/mistakes.txt")
    (cd "$root" && sh labs/plant.sh "$lab.$first" "$dir/cy/$lab.cu")
    cp "$root/labs/solutions/$lab.cu" "$dir/di/"
done
(cd "$root" && sh labs/plant.sh ch4_histogram.global_atomics "$dir/di/ch4_histogram.cu")
echo "$dir: ada, bo, cy, di (4 labs each)"
