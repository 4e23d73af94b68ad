# labs/csv.sh: the grade books' files (sourced by labs/table.sh, labs/mistakes.sh, labs/gradebook and
# tests/labs.t). A grade book is a CSV file: a "# device: ..." line, a header row naming the columns,
# a row a grade; its rows are written and read by the columns' names, never by their places.
#   csv_refuse "$CSV"             exit 2 unless it can be a regular file: not a device, folder or link,
#                                 its folder there; before any grading, so nothing is lost for it
#   csv_write "$CSV" <rows        through a file beside it, renamed into place; exit 1 if a write fails
#   csv_row REPORT COLUMNS [COLUMN=VALUE...]    a row, from a labs/grade report (below)
#   csv_select FILE COLUMN...     the named columns of a grade book's rows (below)
#   csv_device REPORT...          the GPU the grades ran on, as a grade book's first line names it
# As root (Colab, containers) CSV=/dev/null would otherwise be replaced by a regular file.
csv_refuse() {
    [ -n "$1" ] || return 0
    if [ -L "$1" ]; then
        echo "CSV=$1: a symbolic link; give the file itself" >&2; exit 2
    elif [ -e "$1" ] && [ ! -f "$1" ]; then
        echo "CSV=$1: not a regular file (a folder or a device): give a file name" >&2; exit 2
    elif [ ! -d "$(dirname "$1")" ]; then
        echo "CSV=$1: its folder $(dirname "$1") does not exist" >&2; exit 2
    elif [ -e "$1" ] && [ ! -w "$1" ]; then
        echo "CSV=$1: cannot be written" >&2; exit 2
    fi
}
csv_write() {
    csv_tmp=$(mktemp "$(dirname "$1")/.$(basename "$1").XXXXXX") || { echo "cannot write $1" >&2; exit 1; }
    if cat >"$csv_tmp" && chmod 644 "$csv_tmp" && mv "$csv_tmp" "$1"; then
        echo "written: $1"
    else
        rm -f "$csv_tmp"
        echo "cannot write $1 (the old file, if any, is as it was)" >&2
        exit 1
    fi
}
# csv_field FILE KEY: a labs/grade report's "grade-KEY VALUE" line, commas made semicolons.
csv_field() { sed -n "s/^grade-$2 //p" "$1" | tail -n 1 | tr ',' ';'; }
# csv_row REPORT COLUMNS [COLUMN=VALUE...]: one row, its fields in the order of COLUMNS (the header row:
# names separated by commas), each found by its name: the COLUMN=VALUE given, else the report's line
# grade-KEY, KEY the column's name with - for _ (time_ms: grade-time-ms). Commas become semicolons. A
# report that labs/grade finished (it has its grade-verdict line) has every key: a column it lacks is a
# name misspelt in COLUMNS, which stops the script (exit 2); an unfinished one leaves the field empty.
csv_row() {
    csv_report=$1 csv_columns=$2
    shift 2
    csv_line="" csv_sep=""
    for csv_column in $(printf '%s' "$csv_columns" | tr ',' ' '); do
        csv_value="" csv_given=""
        for csv_pair in "$@"; do
            case $csv_pair in "$csv_column="*) csv_value=${csv_pair#*=} csv_given=yes ;; esac
        done
        if [ -z "$csv_given" ]; then
            csv_key=$(printf '%s' "$csv_column" | tr _ -)
            if grep -q "^grade-$csv_key " "$csv_report"; then
                csv_value=$(csv_field "$csv_report" "$csv_key")
            elif grep -q '^grade-verdict ' "$csv_report"; then
                echo "labs/csv.sh: column $csv_column: labs/grade's report has no line grade-$csv_key ($csv_report)" >&2
                exit 2
            fi
        fi
        csv_line="$csv_line$csv_sep$(printf '%s' "$csv_value" | tr ',' ';')"
        csv_sep=,
    done
    printf '%s\n' "$csv_line"
}
# csv_select FILE COLUMN...: the rows of FILE (the lines before the header row that start with # left
# out), each cut down to the columns named, in that order, separated by commas. A name the header lacks:
# no row, and exit 2 naming it.
csv_select() {
    csv_file=$1
    shift
    awk -F, -v want="$*" -v file="$csv_file" '
        !header && /^#/ { next }
        !header { header = 1; n = split(want, name, " ")
                  for (i = 1; i <= NF; i++) at[$i] = i
                  for (i = 1; i <= n; i++) if (!(name[i] in at)) {
                      printf "labs/csv.sh: %s has no column %s\n", file, name[i] > "/dev/stderr"; exit 2 }
                  next }
        { for (i = 1; i <= n; i++) printf "%s%s", $(at[name[i]]), (i < n ? "," : "\n") }' "$csv_file"
}
# csv_device REPORT...: "NVIDIA H200, compute capability 9.0, 132 SMs", from the first report with a
# grade-device line (labs/grade prints the judge's device line where a GPU ran it); empty where none.
csv_device() {
    csv_gpu='\([^,]*, compute capability [0-9.]*\), \([0-9]* SMs\)'  # (name, capability), (SMs)
    sed -n "s/^grade-device device [0-9]*: $csv_gpu.*/\\1, \\2/p" "$@" 2>/dev/null | head -n 1
}
