# ladder.gp: the chapter 2 reductions' bandwidth against size, beside the device-to-device copy's.
#   gnuplot -e "data='output'; out='figures'" plots/ladder.gp
# Reads data/ch2/ladder.csv (ch2_reduction/ladder), writes out/ch2_ladder.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch2/ladder.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")

set terminal pngcairo size 900,560 font "sans,11" noenhanced
set output out.'/ch2_ladder.png'
set datafile separator ','
set title "Summing N float32 on ".device.": kernel time, cold L2, median of the runs"
set logscale x
set format x "1e%L"
set xlabel "N (elements; 4 bytes each)"
set ylabel "bandwidth (GB/s read; log scale, so that small N shows)"
set logscale y
set format y "%g"
set key right bottom
set grid
# One variant's rows, in order of size (a filter, so that the rows of the others do not break the line).
rows(name) = sprintf("< grep '^%s,' '%s'", name, file)
plot rows("copy") using 2:7 with lines lw 2 dt 2 lc rgb "black" title "device-to-device copy (reads and writes: a read-only kernel can pass it)", \
     rows("cub") using 2:7 with linespoints lw 2 dt 1 pt 7 lc rgb "#1b9e77" title "cub::DeviceReduce::Sum (2.3)", \
     rows("warp_shuffle") using 2:7 with linespoints lw 2 dt 1 pt 5 lc rgb "#d95f02" title "warp_shuffle (going further)", \
     rows("better") using 2:7 with linespoints lw 2 dt 3 pt 9 lc rgb "#7570b3" title "better: tree in shared memory (2.2)", \
     rows("naive") using 2:7 with linespoints lw 2 dt 4 pt 13 lc rgb "#e7298a" title "naive: thread 0 adds the block (2.1)"
