#!/bin/sh
# labs/example_class.sh DIR: a made-up class for labs/gradebook, from the course's own files: four
# students, four labs (ch1_map, ch2_block_sum, ch4_histogram, ch5_tiled). ada hands in the solutions;
# bo the files as handed out; cy each lab's first planted mistake; di the solutions but for the
# histogram, where the planted slow one (global atomics) stands in. On a GPU machine, `sh
# labs/example_class.sh output/class && make gradebook SUBMISSIONS=output/class BOOK=output/labs/example_class`
# shows what an instructor gets: output/labs/example_class.csv, .md and .png. Its run on an H200 is
# committed: figures/data/labs/example_class.csv and .md, and figures/labs_example_class.png.
set -eu
dir=${1:?usage: labs/example_class.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
[ -d "$root/labs/solutions" ] ||
    { echo "labs/example_class.sh: needs the course's solutions (not a hand-out)" >&2; exit 2; }
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
