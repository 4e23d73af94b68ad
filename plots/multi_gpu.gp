# multi_gpu.gp: Part 3's normalise split across GPUs: time and speed-up against the array's size.
#   gnuplot -e "data='output'; out='figures'" plots/multi_gpu.gp
# Reads data/ch3/multi_gpu.csv (ch3_streams_events/multi_gpu --sweep), writes out/ch3_multi_gpu.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch3/multi_gpu.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
gpus = system("awk -F, '$3 == \"nccl\" { print $2; exit }' '".file."'") + 0

set terminal pngcairo size 1200,520 font "sans,11" noenhanced
set output out.'/ch3_multi_gpu.png'
set datafile separator ','
set multiplot layout 1,2 title sprintf("a <- a / sum(a) on %d x %s: reduce, combine the sums, divide; median of the runs", gpus, device)
rows(way) = sprintf("< grep -E '^[0-9]+,[0-9]+,%s,' '%s'", way, file)
# speedup(way): n, then the one-GPU time over this way's time, for each size
speedup(way) = sprintf("< awk -F, '$3 == \"one_gpu\" { one[$1] = $5 } $3 == \"%s\" { print $1 \",\" one[$1] / $5 }' '%s'", way, file)
set logscale xy
set format x "1e%L"
set format y "%g"
set xlabel "elements of the whole array (float32)"
set ylabel "time, end to end (ms)"
set key left top Left reverse
set grid
plot rows("one_gpu") using 1:5 with linespoints lw 2 pt 7 lc rgb "black" title "one GPU, the whole array", \
     rows("nccl") using 1:5 with linespoints lw 2 pt 5 lc rgb "#1b9e77" title sprintf("%d GPUs, sums combined with ncclAllReduce", gpus), \
     rows("through_host") using 1:5 with linespoints lw 2 pt 9 dt 3 lc rgb "#d95f02" title sprintf("%d GPUs, sums combined through the host", gpus)
unset logscale y
set ylabel "speed-up over one GPU"
set yrange [0:gpus + 0.5]
set key left top
plot gpus with lines lw 1 dt 2 lc rgb "gray40" title sprintf("%d GPUs, each with its share of the bytes: at best %dx", gpus, gpus), \
     1 with lines lw 1 dt 1 lc rgb "gray70" title "as fast as one GPU", \
     speedup("nccl") using 1:2 with linespoints lw 2 pt 5 lc rgb "#1b9e77" title "ncclAllReduce", \
     speedup("through_host") using 1:2 with linespoints lw 2 pt 9 dt 3 lc rgb "#d95f02" title "through the host"
unset multiplot
