# histogram.gp: Examples 4.3-4.4, how often each letter occurs in the text the histogram counted.
#   gnuplot -e "data='output'; out='figures'" plots/histogram.gp
# Reads data/ch4/histogram.csv (ch4_atomics_mutex/histogram), writes out/ch4_histogram.png.
if (!exists("data")) data = 'output'
if (!exists("out")) out = 'figures'
file = data.'/ch4/histogram.csv'
device = system("head -n 1 '".file."' | sed 's/^# device: //; s/, compute.*//'")
total = real(system("tail -n +3 '".file."' | awk -F, '{s += $3} END {print s}'"))

set terminal pngcairo size 1000,520 font "sans,11" noenhanced
set output out.'/ch4_histogram.png'
set datafile separator ','
set title "Letters of the default 5.6 MB English-like text, counted on ".device." (all four GPU versions agree with the CPU)"
set ylabel "share of all ASCII bytes (%)"
set xlabel "letter"
set yrange [0:*]
set grid y
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border lc rgb "black"
set boxwidth 0.75
set key top right
# Rows 'a'..'z' are codes 97..122; the capital of each is 32 below, in the same file.
lower = sprintf("< awk -F, '$1 >= 97 && $1 <= 122' '%s'", file)
upper = sprintf("< awk -F, '$1 >= 65 && $1 <= 90' '%s'", file)
plot lower using (100.0 * $3 / total):xtic(2) lc rgb "#2171b5" title "lower case", \
     upper using (100.0 * $3 / total) lc rgb "#bdd7e7" fillstyle pattern 4 border lc rgb "black" title "upper case"
