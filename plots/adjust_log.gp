# adjust_log.gp: Example 1.5, the picture before and after the log correction, side by side.
#   gnuplot -e "data='output'; out='figures'" plots/adjust_log.gp
# Reads data/ch1/adjust_log_{before,after}.pgm and adjust_log.csv (ch1_embarrassing/adjust_log), writes
# out/ch1_adjust_log.png. The PGM files have the plain header "P5\n<width> <height>\n255\n".
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
before = data.'/ch1/adjust_log_before.pgm'
after = data.'/ch1/adjust_log_after.pgm'
size = system("sed -n 2p '".before."'")
w = int(word(size, 1)); h = int(word(size, 2))
header = strlen(sprintf("P5\n%d %d\n255\n", w, h))
info = data.'/ch1/adjust_log.csv'
device = system("head -n 1 '".info."' | sed 's/^# device: //; s/, compute.*//'")
mean_before = real(system("tail -n 1 '".info."' | cut -d, -f4"))
mean_after = real(system("tail -n 1 '".info."' | cut -d, -f5"))
gain = real(system("tail -n 1 '".info."' | cut -d, -f3"))

set terminal pngcairo size 1500,560 font "sans,11" noenhanced
set output out.'/ch1_adjust_log.png'
set multiplot layout 1,3 title sprintf("Example 1.5 on %s: out = log2(1 + in), gain 1; mean brightness %.3f before, %.3f after", device, mean_before, mean_after)
set palette gray
set cbrange [0:255]
unset colorbox
unset tics
unset border
set size ratio -1
set xrange [0:w-1]
set yrange [0:h-1]
set title "before (grey ramp 0..1 along the bottom)"
plot before binary array=(w,h) skip=header format='%uchar' flipy with image notitle
set title "after: the shadows are lifted, the detail shows"
plot after binary array=(w,h) skip=header format='%uchar' flipy with image notitle
# What the kernel did to every pixel: the transfer curve against out = in. Dark pixels gain the most
# (the curve's slope at 0 is 1/ln 2 = 1.44): the picture's mean brightness moves from the blue mark to
# the orange one.
set title "the transfer curve: each pixel's brightness out against in"
set size ratio -1
set border 3
set tics nomirror
set xtics 0.25 nomirror
set ytics 0.25 nomirror
set xrange [0:1]
set yrange [0:1]
set xlabel "brightness in"
set ylabel "brightness out"
set key top left
set arrow 1 from mean_before, 0 to mean_before, graph 1 nohead dt 3 lw 2 lc rgb "#3182bd"
set arrow 2 from 0, mean_after to graph 1, mean_after nohead dt 3 lw 2 lc rgb "#e6550d"
set label 1 sprintf("mean in %.3f", mean_before) at mean_before, 0.6 offset 0.5,0 tc rgb "#3182bd"
set label 2 sprintf("mean out %.3f", mean_after) at 0.55, mean_after offset 0,0.7 tc rgb "#e6550d"
plot x with lines dt 2 lc rgb "gray50" title "out = in", \
     (gain * log(1 + x) / log(2) < 1 ? gain * log(1 + x) / log(2) : 1) with lines lw 2 lc rgb "black" \
         title (gain == 1 ? "out = log2(1 + in)" : sprintf("out = %g log2(1 + in), clipped at 1", gain))
unset multiplot
