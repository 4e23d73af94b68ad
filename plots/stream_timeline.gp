# stream_timeline.gp: Examples 3.6-3.7, the stages of ten normalisations on 1 stream and on 10, as a
# Gantt chart: one row per stream, one colour (and shade) per stage, the same time axis for both panels.
#   gnuplot -e "data='output'; out='figures'" plots/stream_timeline.gp
# Reads data/ch3/stream_timeline.csv (ch3_streams_events/stream_timing), writes out/ch3_stream_timeline.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch3/stream_timeline.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
many = int(system("tail -n 1 '".file."' | cut -d, -f1"))
end_one = real(system("grep '^1,' '".file."' | cut -d, -f6 | sort -g | tail -n 1"))
end_many = real(system("grep '^".many.",' '".file."' | cut -d, -f6 | sort -g | tail -n 1"))
xmax = (end_one > end_many ? end_one : end_many) * 1.02

set terminal pngcairo size 1000,640 font "sans,11" noenhanced
set output out.'/ch3_stream_timeline.png'
set datafile separator ','
set style fill solid 1.0 border lc rgb "white"
set xrange [0:xmax]
set xlabel "time since the first operation (ms, CUDA events)"
set grid x
stage(mode, name) = sprintf("< grep '^%d,' '%s' | grep ',%s,'", mode, file, name)
# Bar: centred on the stage's middle, half-width in x, 0.4 rows high.
bar = "using (($5+$6)/2):2:(($6-$5)/2):(0.4)"
set multiplot layout 2,1 title "Normalising 10 arrays of 10,000,000 float32 on ".device
set title sprintf("1 stream: %.1f ms, every stage waits for the one before", end_one)
set ylabel "stream"
set yrange [-0.6:0.6]
set ytics 1
set key outside right
plot stage(1, "copy_in") @bar with boxxyerror lc rgb "#08519c" title "copy in", \
     stage(1, "partial_reduce") @bar with boxxyerror lc rgb "#fd8d3c" title "partial_reduce", \
     stage(1, "single_thread_sum") @bar with boxxyerror lc rgb "#e31a1c" title "single_thread_sum", \
     stage(1, "divide_by") @bar with boxxyerror lc rgb "#fdd49e" title "divide_by", \
     stage(1, "copy_out") @bar with boxxyerror lc rgb "#6baed6" title "copy out"
set title sprintf("%d streams: %.1f ms, copies in and out overlap", many, end_many)
set yrange [-0.6:many - 0.4]
plot stage(many, "copy_in") @bar with boxxyerror lc rgb "#08519c" title "copy in", \
     stage(many, "partial_reduce") @bar with boxxyerror lc rgb "#fd8d3c" title "partial_reduce", \
     stage(many, "single_thread_sum") @bar with boxxyerror lc rgb "#e31a1c" title "single_thread_sum", \
     stage(many, "divide_by") @bar with boxxyerror lc rgb "#fdd49e" title "divide_by", \
     stage(many, "copy_out") @bar with boxxyerror lc rgb "#6baed6" title "copy out"
unset multiplot
