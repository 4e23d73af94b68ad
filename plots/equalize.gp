# equalize.gp: histogram equalisation, the picture before and after with their histograms and cumulative
# distributions.
#   gnuplot -e "data='output'; out='figures'" plots/equalize.gp
# Reads data/ch4/equalize_{before,after}.pgm and equalize.csv (ch4_atomics_mutex/equalize), writes
# out/ch4_equalize.png. The PGM files have the plain header "P5\n<width> <height>\n255\n".
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
before = data.'/ch4/equalize_before.pgm'
after = data.'/ch4/equalize_after.pgm'
size = system("sed -n 2p '".before."'")
w = int(word(size, 1)); h = int(word(size, 2))
header = strlen(sprintf("P5\n%d %d\n255\n", w, h))
file = data.'/ch4/equalize.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")

set terminal pngcairo size 1100,1000 font "sans,11" noenhanced
set output out.'/ch4_equalize.png'
set multiplot layout 2,2 title "Histogram equalisation on ".device.": grey level v becomes 255 (cdf(v) - cdf_min) / (pixels - cdf_min)"
set palette gray
set cbrange [0:255]
unset colorbox
unset tics
unset border
set size ratio -1
set xrange [0:w-1]
set yrange [0:h-1]
set title "before: chapter 1's dark picture"
plot before binary array=(w,h) skip=header format='%uchar' flipy with image notitle
set title "after: the same levels, spread over 0..255"
plot after binary array=(w,h) skip=header format='%uchar' flipy with image notitle

set size noratio
set border
set tics
set datafile separator ','
set xrange [0:255]
set yrange [0:*]
set y2range [0:1]
set xlabel "grey level"
set ylabel "pixels"
set y2label "cumulative fraction"
set ytics nomirror
set y2tics 0.25
set grid
set key left top
set title "histogram before (Example 4.4), and its scan: the cdf"
plot file using 1:2 with impulses lw 2 lc rgb "#7570b3" title "pixels at each level", \
     file using 1:4 axes x1y2 with lines lw 2 lc rgb "#d95f02" title "cdf"
set title "histogram after: the cumulative distribution climbs in even steps"
plot file using 1:3 with impulses lw 2 lc rgb "#7570b3" title "pixels at each level", \
     file using 1:5 axes x1y2 with lines lw 2 lc rgb "#d95f02" title "cdf"
unset multiplot
