# heat.gp: heat diffusion on a plate (ch3 heat and heat_mpi): the plate at four moments, how fast the
# field settles, and the time of a step on one GPU and on two, three ways of exchanging the halo.
#   gnuplot -e "data='output'; out='figures'" plots/heat.gp
# Reads data/ch3/heat/heat.ppm and heat_convergence.csv (heat), heat_mpi_{1,2}_{4096,16384,45000}.csv
# (mpirun -np 1 and -np 2 heat_mpi -n N --steps 20 -r 5), writes out/ch3_heat.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
dir = data.'/ch3/heat'
picture = dir.'/heat.ppm'
convergence = dir.'/heat_convergence.csv'
size = system("sed -n 2p '".picture."'")
w = int(word(size, 1)); h = int(word(size, 2))
header = strlen(sprintf("P6\n%d %d\n255\n", w, h))
device = system("head -n 1 '".dir."/heat_mpi_2_45000.csv' | sed 's/^# device: //; s/, compute.*//'")
last = int(system("tail -n 1 '".convergence."' | cut -d, -f1"))
shot(k) = int(ceil(last / k / 100.0) * 100)  # heat's snapshots: 1/600, 1/60, 1/6 and all of the steps

set terminal pngcairo size 1200,860 font "sans,11" noenhanced
set output out.'/ch3_heat.png'
set datafile separator ','
set multiplot title "Heat on a plate, top edge at 1: Jacobi steps on ".device
# The plate after each snapshot's steps, side by side (colour: temperature 0 to 1, viridis).
set origin 0, 0.5
set size 1, 0.45
unset tics
unset border
set xrange [0:w-1]
set yrange [0:h-1]
set size ratio -1
set title sprintf("a %d x %d plate after %d, %d, %d and %d steps", h, h, shot(600), shot(60), shot(6), last)
plot picture binary array=(w,h) skip=header format='%uchar' flipy with rgbimage notitle
set size noratio
set border
set tics
unset title
# How fast it settles: the largest change of a point in a step.
set origin 0, 0
set size 0.5, 0.5
set autoscale
set logscale xy
set format y "1e%L"
set xlabel "steps"
set ylabel "largest change of a point in one step"
set grid
plot convergence every ::1 using 1:2 with lines lw 2 lc rgb "#1b9e77" notitle
# A step's time on one GPU and on two, for each way of exchanging the halo, at three plate sizes.
set origin 0.5, 0
set size 0.5, 0.5
unset logscale x
set logscale y
set format y "%g"
set xrange [0.8:2.2]
set xtics ("1" 1, "2" 2)
set xlabel "GPUs (one MPI rank each)"
set ylabel "time of one step (ms)"
set key left bottom Left reverse font ",9"
ms(np, n, way) = real(system(sprintf("awk -F, '$1 == \"%s\" { print $4 }' '%s/heat_mpi_%d_%d.csv'", way, dir, np, n)))
set for [n in "4096 16384 45000"] label sprintf("N = %s", n) at 2.05, ms(2, int(n), "NCCL send/recv") left font ",9"
plot for [n in "4096 16384 45000"] sprintf("< printf '1,%g\\n2,%g\\n'", ms(1, int(n), "NCCL send/recv"), ms(1, int(n), "NCCL send/recv") / 2) \
         using 1:2 with lines dt 3 lc rgb "gray40" title (n eq "4096" ? "one GPU's time / GPUs" : ""), \
     for [n in "4096 16384 45000"] sprintf("< printf '1,%g\\n2,%g\\n'", ms(1, int(n), "MPI_Sendrecv"), ms(2, int(n), "MPI_Sendrecv")) \
         using 1:2 with linespoints pt 9 lc rgb "#d95f02" title (n eq "4096" ? "MPI_Sendrecv through the host" : ""), \
     for [n in "4096 16384 45000"] sprintf("< printf '1,%g\\n2,%g\\n'", ms(1, int(n), "NCCL send/recv"), ms(2, int(n), "NCCL send/recv")) \
         using 1:2 with linespoints pt 5 lc rgb "#1b9e77" title (n eq "4096" ? "NCCL send/recv" : ""), \
     for [n in "4096 16384 45000"] sprintf("< printf '1,%g\\n2,%g\\n'", ms(1, int(n), "NCCL overlapped"), ms(2, int(n), "NCCL overlapped")) \
         using 1:2 with linespoints pt 7 dt 4 lc rgb "#7570b3" title (n eq "4096" ? "NCCL, edge rows overlapped" : "")
unset multiplot
