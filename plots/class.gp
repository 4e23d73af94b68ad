# class.gp: a class's grade book at a glance: for each lab, each student's file as its share of the
# limit the lab is timed against, the course's solution marked; files that failed sit on the floor.
#   gnuplot -e "book='output/labs/class.csv'; png='output/labs/class.png'" plots/class.gp
# Reads a CSV of labs/gradebook (student,lab,verdict,exit,correct,sanitizer,time_ms,percent_of_solution,
# percent_of_limit,...), writes png. labs/gradebook runs it; make figures (data=, out=) draws the
# example class committed in figures/data/labs/example_class.csv (labs/example_class.sh, graded on a GPU).
if (exists("data")) book = data.'/labs/example_class.csv'; png = out.'/labs_example_class.png'
if (!exists("book")) book = 'output/labs/class.csv'
if (!exists("png")) png = 'output/labs/class.png'
device = system("head -n 1 '".book."' | sed 's/^# device: //; s/, [0-9-]* [0-9:]* UTC.*//'")

set terminal pngcairo size 1000,560 font "sans,11" noenhanced
set output png
set datafile separator ','
set title "A class, graded by labs/gradebook on ".device."\neach file's speed as a share of its lab's limit"
set ylabel "% of the limit (copy bandwidth, CUB, cuBLAS, host link)"
set xlabel "lab (its limit in the report)"
set yrange [-8:100<*]  # (the floor in sight, where no file ran)
set grid ytics
set key below horizontal
set offsets 0.5, 0.5, 0, 0
set xtics rotate by -30
# The book's columns by their names (its second line is the header row): the awk programs below read
# a row as student, lab, verdict, correct and share (its % of the limit); a name the header lacks stops
# them, naming it.
named = 'NR == 2 { for (ci = 1; ci <= NF; ci++) c[$ci] = ci; ' . \
        '  nwant = split("student lab verdict correct percent_of_limit", want, " "); ' . \
        '  for (k = 1; k <= nwant; k++) if (!(want[k] in c)) { ' . \
        '      print "class.gp: " FILENAME " has no column " want[k] > "/dev/stderr"; exit 1 } } ' . \
        'NR > 2 { student = $c["student"]; lab = $c["lab"]; verdict = $c["verdict"]; correct = $c["correct"]; ' . \
        '         share = $c["percent_of_limit"] } '
# The labs' names at their places, in the order they first appear in the book.
eval "set xtics (".system("awk -F, '".named.'NR > 2 && !(lab in x) { x[lab] = n; printf "%s\"%s\" %d", n ? ", " : "", lab, n++ }'."' '".book."'").")"
# One row a file: the lab's place on the x axis (labs in the order they first appear), the solution
# on it and each student a little to its right, so that their points do not hide each other, the share of the limit (-4 for a file
# that was not right: FAIL, not run), and which kind of point it is.
rows = "< awk -F, '".named.'NR > 2 { if (!(lab in x)) x[lab] = n++; ' . \
    '  if (student !~ /^\(solution/ && !(student in s)) s[student] = ++m; ' . \
    '  right = correct == "yes" && share != "-"; ' . \
    '  kind = verdict ~ /not run/ ? 4 : verdict ~ /^FAIL \((does not compile|rule: )/ ? 5 : ' . \
    '         student ~ /^\(solution/ ? 0 : verdict ~ /^PASS but slow/ ? 2 : right ? 1 : 3; ' . \
    'printf "%d,%.3f,%s,%s,%d,%s\n", x[lab], x[lab] + 0.07 * s[student], right ? share : -4, lab, kind, student }'."' '".book."'"
plot rows using ($5 == 0 ? $2 : 1/0):3 with points pt 3 ps 2.5 lc rgb "black" title "the course's solution", \
     rows using ($5 == 1 ? $2 : 1/0):3 with points pt 7 ps 1.4 lc rgb "#1b9e77" title "PASS", \
     rows using ($5 == 2 ? $2 : 1/0):3 with points pt 6 ps 1.4 lc rgb "#d95f02" title "PASS but slow", \
     rows using ($5 == 3 ? $2 : 1/0):3 with points pt 2 ps 1.4 lc rgb "#e7298a" title "FAIL or not graded (on the floor)", \
     rows using ($5 == 5 ? $2 : 1/0):3 with points pt 9 ps 1.4 lc rgb "#7570b3" title "does not compile, or a rule broken", \
     rows using ($5 == 4 ? $2 : 1/0):3 with points pt 4 ps 1.4 lc rgb "#888888" title "not run (built only: no GPU; or no library here)"
