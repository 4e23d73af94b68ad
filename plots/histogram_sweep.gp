# histogram_sweep.gp: Part 4, the two GPU histograms' kernel time against the number of blocks, on two
# y-axes (the global-atomics kernel is much slower), with a dashed line at each kernel's best block
# count and a tick at every block count that is a multiple of the number of SMs.
#   gnuplot -e "data='output'; out='figures'" plots/histogram_sweep.gp
# Reads data/ch4/histogram_sweep.csv (ch4_atomics_mutex/histogram_sweep), writes out/ch4_histogram_sweep.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch4/histogram_sweep.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
rows(kernel) = sprintf("< grep '^%s,' '%s'", kernel, file)
# The block count with the smallest median time.
best(kernel) = int(system(sprintf("awk -F, '$1 == \"%s\" && ($4 < t || t == \"\") {t = $4; b = $3} END {print b}' '%s'", kernel, file)))
sms = int(system("tail -n 1 '".file."' | cut -d, -f7"))
best_global = best("global"); best_shared = best("shared")
max_blocks = int(system("tail -n 1 '".file."' | cut -d, -f3"))

set terminal pngcairo size 1000,560 font "sans,11" noenhanced
set output out.'/ch4_histogram_sweep.png'
set datafile separator ','
set title "Histogram of 5.6 MB of text on ".device.": kernel time against the number of blocks (32 x i)"
set xlabel sprintf("blocks (ticks under the axis: multiples of the %d SMs)", sms)
set ylabel "global atomics (4.3): time (ms)" tc rgb "#08519c"
set y2label "shared-memory histogram (4.4): time (ms)" tc rgb "#d94801"
set ytics nomirror tc rgb "#08519c"
set y2tics tc rgb "#d94801"
set yrange [0:*]
set y2range [0:*]
set grid x
set key at graph 0.62, graph 0.3 right  # clear of the curves and of the tick marks under them
set xrange [0:max_blocks * 1.01]
# A best block count is marked only where the curve has one: where its slowest point is at least 10%
# slower than its fastest. A flat curve says the block count does not matter, and gets that label.
spread(kernel) = real(system(sprintf("awk -F, '$1 == \"%s\" { if (min == \"\" || $4 < min) min = $4; if ($4 > max) max = $4 } END { print max / min }' '%s'", kernel, file)))
if (spread("global") >= 1.1) {
    set arrow 1 from best_global, graph 0 to best_global, graph 1 nohead dt 2 lw 2 lc rgb "#08519c"
    set label 1 sprintf("best: %d", best_global) at best_global, graph 0.95 offset 0.5,0 tc rgb "#08519c"
} else {
    set label 1 sprintf("global atomics: flat (within %.0f%%): contention, not the block count, sets the time", \
        100 * (spread("global") - 1)) at graph 0.22, graph 0.9 tc rgb "#08519c"
}
if (spread("shared") >= 1.1) {
    set arrow 2 from best_shared, graph 0 to best_shared, graph 1 nohead dt 4 lw 2 lc rgb "#d94801"
    set label 2 sprintf("best: %d", best_shared) at best_shared, graph 0.88 offset 0.5,0 tc rgb "#d94801"
}
# Marks at multiples of the SM count, drawn as short ticks just above the x axis.
do for [k = 1:int(max_blocks / sms)] {
    set arrow (100 + k) from k * sms, graph 0 to k * sms, graph 0.025 nohead lw 1 lc rgb "black"
}
plot rows("global") using 3:4 axes x1y1 with linespoints lw 2 pt 7 ps 0.5 lc rgb "#08519c" title "global atomics (left axis)", \
     rows("shared") using 3:4 axes x1y2 with linespoints lw 2 dt 3 pt 5 ps 0.5 lc rgb "#d94801" title "shared memory (right axis)"
