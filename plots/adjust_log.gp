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

set terminal pngcairo size 1100,620 font "sans,11" noenhanced
set output out.'/ch1_adjust_log.png'
set multiplot layout 1,2 title sprintf("Example 1.5 on %s: out = log2(1 + in), gain 1; mean brightness %.3f before, %.3f after", device, mean_before, mean_after)
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
unset multiplot
