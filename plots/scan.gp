# scan.gp: inclusive scans of int32 against size: three kernels, the single pass and CUB, with the copy.
#   gnuplot -e "data='output'; out='figures'" plots/scan.gp
# Reads data/ch4/scan.csv (ch4_atomics_mutex/scan), writes out/ch4_scan.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch4/scan.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")

set terminal pngcairo size 900,560 font "sans,11" noenhanced
set output out.'/ch4_scan.png'
set datafile separator ','
set title "Inclusive scan of n int32 on ".device.": kernel time, cold L2, median of the runs"
set logscale x
set format x "1e%L"
set xlabel "n (elements; sums in 32 bits up to 2^30, in 64 bits above)"
set ylabel "bandwidth ((4 + sum bytes) x n / time, GB/s)"
set yrange [0:*]
set offsets 0, 0, 1400, 0
set key left top Left reverse
set grid
rows(name) = sprintf("< grep '^%s,' '%s'", name, file)
plot rows("copy") using 2:7 with lines lw 2 dt 2 lc rgb "black" title "device-to-device copy (reads and writes, as a scan does)", \
     rows("cub") using 2:7 with linespoints lw 2 dt 1 pt 7 lc rgb "#1b9e77" title "cub::DeviceScan::InclusiveSum", \
     rows("single_pass") using 2:7 with linespoints lw 2 dt 1 pt 5 lc rgb "#d95f02" title "single pass, decoupled look-back", \
     rows("three_kernels") using 2:7 with linespoints lw 2 dt 3 pt 9 lc rgb "#7570b3" title "three kernels: scan tiles, scan their sums, add back"
