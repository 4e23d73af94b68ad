# sgemm_ladder.gp: float32 matrix products from naive to register tiles, against cublasSgemm.
#   gnuplot -e "data='output'; out='figures'" plots/sgemm_ladder.gp
# Reads data/ch5/sgemm_ladder.csv (ch5_matmul/sgemm_ladder), writes out/ch5_sgemm_ladder.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch5/sgemm_ladder.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")

set terminal pngcairo size 900,560 font "sans,11" noenhanced
set output out.'/ch5_sgemm_ladder.png'
set datafile separator ','
set title "float32 C = A x B on ".device.": median of the runs, checked against cuBLAS"
set logscale x 2
set xlabel "n (square matrices; sizes that are not multiples of the tiles included)"
set ylabel "GFLOP/s (2 n^3 / time)"
set yrange [0:*]
set key left top
set grid
rows(name) = sprintf("< grep '^%s,' '%s' | sort -t, -k2 -g", name, file)
plot rows("cublas") using 2:6 with linespoints lw 3 dt 1 pt 7 lc rgb "black" title "cublasSgemm, strict fp32 (the top line)", \
     rows("registers") using 2:6 with linespoints lw 2 dt 1 pt 5 lc rgb "#d95f02" title "4. register tiles 8 x 8, float4 loads", \
     rows("shared") using 2:6 with linespoints lw 2 dt 2 pt 9 lc rgb "#7570b3" title "3. shared-memory tiles 32 x 32", \
     rows("coalesced") using 2:6 with linespoints lw 2 dt 3 pt 13 lc rgb "#1b9e77" title "2. coalesced (x = column)", \
     rows("naive") using 2:6 with linespoints lw 2 dt 4 pt 11 lc rgb "#e7298a" title "1. naive (x = row)"
