# stream_timeline.gp: Examples 3.6-3.7, the stages of ten normalisations as a Gantt chart: one row per
# stream, one colour (and shade) per stage, the same time axis in the three panels: one stream, ten
# streams as in the article, ten streams with the copies in chained.
#   gnuplot -e "data='output'; out='figures'" plots/stream_timeline.gp
# Reads data/ch3/stream_timeline.csv (ch3_streams_events/stream_timing), writes out/ch3_stream_timeline.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch3/stream_timeline.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
many = int(system("grep '^many,' '".file."' | head -n 1 | cut -d, -f2"))
end(mode) = real(system(sprintf("grep '^%s,' '%s' | cut -d, -f7 | sort -g | tail -n 1", mode, file)))
e1 = end("one"); e2 = end("many"); e3 = end("chained")
xmax = (e1 > e2 ? (e1 > e3 ? e1 : e3) : (e2 > e3 ? e2 : e3)) * 1.02

set terminal pngcairo size 1000,900 font "sans,11" noenhanced
set output out.'/ch3_stream_timeline.png'
set datafile separator ','
set style fill solid 1.0 border lc rgb "white"
set xrange [0:xmax]
set grid x
set key outside right
# The same margins in the three panels, so that their time axes line up (the key of the first panel
# would otherwise narrow it alone).
set lmargin at screen 0.07
set rmargin at screen 0.78
set ylabel "stream"
set ytics 1
rows(mode, name) = sprintf("< grep '^%s,' '%s' | grep ',%s,'", mode, file, name)
# A bar centred on the stage's middle: half its length in x, 0.4 of a row in y.
bar = "using (($6+$7)/2):3:(($7-$6)/2):(0.4) with boxxyerror"
panel = "plot rows(mode, 'copy_in') @bar lc rgb '#08519c' title 'copy in', \
  rows(mode, 'partial_reduce') @bar lc rgb '#fd8d3c' title 'partial_reduce', \
  rows(mode, 'single_thread_sum') @bar lc rgb '#e31a1c' title 'single_thread_sum', \
  rows(mode, 'divide_by') @bar lc rgb '#fdd49e' title 'divide_by', \
  rows(mode, 'copy_out') @bar lc rgb '#6baed6' title 'copy out'"
set multiplot layout 3,1 title "Normalising 10 arrays of 10,000,000 float32 on ".device." (CUDA events)"
mode = "one"
set title sprintf("1 stream: %.1f ms; every stage waits for the one before", e1)
set yrange [-0.6:0.6]
@panel
unset key
mode = "many"
set title sprintf("%d streams as in the article: %.1f ms (a bar starts when its stream reaches it, waiting included)", many, e2)
set yrange [-0.6:many - 0.4]
@panel
mode = "chained"
set title sprintf("%d streams, each copy in chained to the one before: %.1f ms", many, e3)
set xlabel "time since the first operation (ms)"
@panel
unset multiplot
