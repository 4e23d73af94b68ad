# sgemm_ladder.gp: float32 matrix products from the naive kernel to cuBLAS (the tensor cores: sgemm_tensor.gp).
#   gnuplot -e "data='output'; out='figures'" plots/sgemm_ladder.gp
# Reads data/ch5/sgemm_ladder.csv (ch5_matmul/sgemm_ladder), writes out/ch5_sgemm_ladder.png.
# Lines join the powers of two only; the other sizes (127, 1000, 4000, 4097: not multiples of the
# tiles) are drawn as separate open points, so that their dips do not make a false zigzag. The limits are the CSV's own rows
# (n = 0): the fp32 peak from the device's facts.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch5/sgemm_ladder.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
has(name) = int(system(sprintf("grep -c '^%s,' '%s'", name, file)))
limit(name) = has(name) ? real(system(sprintf("grep '^%s,0,' '%s' | cut -d, -f6 | head -n 1", name, file))) : NaN

set terminal pngcairo size 1000,760 font "sans,11" noenhanced
set output out.'/ch5_sgemm_ladder.png'
set datafile separator ','
set title "C = A x B on ".device.": median of the runs, each checked against cuBLAS in strict fp32"
set logscale x 2
set logscale y 10
set xrange [100:*]
set xlabel "n, square matrices (open symbols: sizes that are not powers of two, such as 1000, 4000 and 4097)"
set ylabel "TFLOP/s (2 n^3 / time)"
set key below maxrows 4 width -1
set grid
fp32_peak = limit("peak_fp32") / 1e3
set yrange [0.05:200]
# powers of two, and the other sizes, of one kernel
pow2(name) = sprintf("< awk -F, '$1 == \"%s\" && $2 > 0 { m = $2; while (m %% 2 == 0) m /= 2; if (m == 1) print }' '%s' | sort -t, -k2 -g", name, file)
odd(name) = sprintf("< awk -F, '$1 == \"%s\" && $2 > 0 { m = $2; while (m %% 2 == 0) m /= 2; if (m != 1) print }' '%s'", name, file)
set style line 1 lw 3 pt 7 lc rgb "black"
set style line 2 lw 3 pt 7 lc rgb "#666666" dt 2
set style line 3 lw 2 pt 9 lc rgb "#e7298a"
set style line 4 lw 2 pt 13 lc rgb "#1b9e77"
set style line 5 lw 2 pt 11 lc rgb "#7570b3"
set style line 6 lw 2 pt 5 lc rgb "#d95f02"
set style line 7 lw 2 pt 7 lc rgb "#66a61e"
set style line 8 lw 2 pt 9 lc rgb "#e6ab02"
set style line 9 lw 3 pt 5 lc rgb "#1f78b4"
set style line 10 lw 3 pt 13 lc rgb "#a6761d"
plot fp32_peak with lines lw 1 dt 3 lc rgb "black" title sprintf("fp32 peak, %.1f (device facts)", fp32_peak), \
     pow2("cublas") using 2:($6/1e3) with linespoints ls 1 title "cublasSgemm, strict fp32", \
     pow2("sized") using 2:($6/1e3) with linespoints ls 9 title "7. tile sized for n", \
     pow2("double_buffer") using 2:($6/1e3) with linespoints ls 8 title "6. double buffer", \
     pow2("warptiles") using 2:($6/1e3) with linespoints ls 7 title "5. warp tiles 64 x 64", \
     pow2("registers") using 2:($6/1e3) with linespoints ls 6 title "4. register tiles 8 x 8", \
     pow2("shared") using 2:($6/1e3) with linespoints ls 5 title "3. shared tiles 32 x 32", \
     pow2("coalesced") using 2:($6/1e3) with linespoints ls 4 title "2. coalesced", \
     pow2("naive") using 2:($6/1e3) with linespoints ls 3 title "1. naive", \
     odd("cublas") using 2:($6/1e3) with points ls 1 pt 6 notitle, \
     odd("sized") using 2:($6/1e3) with points ls 9 pt 4 notitle, \
     odd("double_buffer") using 2:($6/1e3) with points ls 8 pt 8 notitle, \
     odd("warptiles") using 2:($6/1e3) with points ls 7 pt 6 notitle, \
     odd("registers") using 2:($6/1e3) with points ls 6 pt 4 notitle, \
     odd("shared") using 2:($6/1e3) with points ls 5 pt 8 notitle, \
     odd("coalesced") using 2:($6/1e3) with points ls 4 pt 12 notitle, \
     odd("naive") using 2:($6/1e3) with points ls 3 pt 10 notitle
