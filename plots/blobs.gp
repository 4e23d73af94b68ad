# blobs.gp: Example 2.5 (the article's figure 2.3), the synced and the unsynced kernel side by side.
#   gnuplot -e "data='output'; out='figures'" plots/blobs.gp
# Reads data/ch2/blobs_sync.ppm, blobs_nosync.ppm and blobs.csv (ch2_reduction/blobs), writes out/ch2_blobs.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
synced = data.'/ch2/blobs_sync.ppm'
unsynced = data.'/ch2/blobs_nosync.ppm'
size = system("sed -n 2p '".synced."'")
w = int(word(size, 1)); h = int(word(size, 2))
header = strlen(sprintf("P6\n%d %d\n255\n", w, h))
info = data.'/ch2/blobs.csv'
device = system("head -n 1 '".info."' | sed 's/^# device: //; s/, compute.*//'")
differ = int(system("tail -n 1 '".info."' | cut -d, -f2"))

set terminal pngcairo size 1000,560 font "sans,11" noenhanced
set output out.'/ch2_blobs.png'
set multiplot layout 1,2 margins 0.02, 0.87, 0.04, 0.88 spacing 0.04 title sprintf("Example 2.5 on %s: a 16 x 16 shared tile read back flipped (colour: amplitude 0 to 4)", device)
unset tics
unset border
set size ratio -1
set xrange [0:w-1]
set yrange [0:h-1]
set title "with __syncthreads(): clean blobs"
plot synced binary array=(w,h) skip=header format='%uchar' flipy with rgbimage notitle
set title sprintf("without it: %.1f%% of the pixels wrong", 100.0 * differ / (w * h))
# The colour bar: the same nine samples of viridis that common/image.c's colormap interpolates, over the
# amplitude range the program maps (0 to 4). An invisible point drawn with the palette makes it appear.
set palette defined (0 '#440154', 1 '#472d7b', 2 '#3b528b', 3 '#2c728e', 4 '#21908c', 5 '#27ad81', \
                     6 '#5dc863', 7 '#aadc32', 8 '#fde725')
set cbrange [0:4]
set cbtics 1 scale 0
set cblabel "amplitude"
set colorbox user origin screen 0.895, 0.2 size screen 0.015, 0.6
plot unsynced binary array=(w,h) skip=header format='%uchar' flipy with rgbimage notitle, \
     '+' using (NaN):(NaN):(0) with points palette notitle
unset multiplot
