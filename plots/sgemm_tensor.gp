# sgemm_tensor.gp: float32 matrix products on the tensor cores (TF32): rung 8 (mma.sync, sgemm_tensor)
# and rung 9 (TMA and wgmma, sgemm_hopper), each beside cuBLAS in TF32 and in strict fp32.
#   gnuplot -e "data='output'; out='figures'" plots/sgemm_tensor.gp
# Reads data/ch5/sgemm_tensor.csv and data/ch5/sgemm_hopper.csv, writes out/ch5_sgemm_tensor.png.
# Lines join the powers of two; the other sizes (127, 1000, 4000, 4097) are open points. The limits are
# the CSVs' own rows (n = 0): the TF32 peak from the device's facts, the ceilings of mma.sync and of
# wgmma measured on it. A GPU without wgmma writes no sgemm_hopper.csv rows: that rung is then absent.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch5/sgemm_tensor.csv'
hopper = data.'/ch5/sgemm_hopper.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
limit(name, f) = real(system(sprintf("grep '^%s,0,' '%s' | cut -d, -f6 | head -n 1", name, f)))
has(name, f) = int(system(sprintf("grep -c '^%s,' '%s' 2>/dev/null", name, f)))

set terminal pngcairo size 1000,700 font "sans,11" noenhanced
set output out.'/ch5_sgemm_tensor.png'
set datafile separator ','
set title "C = A x B in TF32 on ".device.": median of the runs, each checked against cuBLAS in strict fp32"
set logscale x 2
set logscale y 10
set xrange [100:*]
set xlabel "n, square matrices (open symbols: sizes that are not powers of two, such as 1000, 4000 and 4097)"
set ylabel "TFLOP/s (2 n^3 / time)"
set key below maxrows 4 width -1
set grid
tf32_peak = limit("peak_tf32", file) / 1e3
mma_ceiling = limit("mma_ceiling", file) / 1e3
wgmma_ceiling = has("wgmma_ceiling", hopper) ? limit("wgmma_ceiling", hopper) / 1e3 : NaN
set yrange [0.1:1000]
pow2(name, f) = sprintf("< awk -F, '$1 == \"%s\" && $2 > 0 { m = $2; while (m %% 2 == 0) m /= 2; if (m == 1) print }' '%s' | sort -t, -k2 -g", name, f)
odd(name, f) = sprintf("< awk -F, '$1 == \"%s\" && $2 > 0 { m = $2; while (m %% 2 == 0) m /= 2; if (m != 1) print }' '%s'", name, f)
set style line 1 lw 3 pt 7 lc rgb "black"
set style line 2 lw 3 pt 7 lc rgb "#666666" dt 2
set style line 3 lw 3 pt 13 lc rgb "#a6761d"
set style line 4 lw 3 pt 5 lc rgb "#1f78b4"
plot tf32_peak with lines lw 1 dt 3 lc rgb "black" title sprintf("TF32 peak, %.0f (device facts)", tf32_peak), \
     wgmma_ceiling with lines lw 1 dt 4 lc rgb "#1f78b4" title sprintf("wgmma ceiling, %.0f (measured)", wgmma_ceiling), \
     mma_ceiling with lines lw 1 dt 4 lc rgb "#a6761d" title sprintf("mma.sync ceiling, %.0f (measured)", mma_ceiling), \
     pow2("cublas_tf32", file) using 2:($6/1e3) with linespoints ls 2 title "cuBLAS, TF32 tensor cores", \
     pow2("wgmma", hopper) using 2:($6/1e3) with linespoints ls 4 title "9. wgmma: TMA, mbarriers, warpgroups (sgemm_hopper)", \
     pow2("mma_sync", file) using 2:($6/1e3) with linespoints ls 3 title "8. mma.sync, cp.async (sgemm_tensor)", \
     pow2("cublas", file) using 2:($6/1e3) with linespoints ls 1 title "cublasSgemm, strict fp32", \
     odd("cublas_tf32", file) using 2:($6/1e3) with points ls 2 pt 6 notitle, \
     odd("wgmma", hopper) using 2:($6/1e3) with points ls 4 pt 4 notitle, \
     odd("mma_sync", file) using 2:($6/1e3) with points ls 3 pt 12 notitle, \
     odd("cublas", file) using 2:($6/1e3) with points ls 1 pt 6 notitle
