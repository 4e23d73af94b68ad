# labs/csv.sh: the grade books' files (sourced by labs/table.sh, labs/mistakes.sh and labs/gradebook).
#   csv_refuse "$CSV"             exit 2 unless it can be a regular file: not a device, folder or link,
#                                 its folder there; before any grading, so nothing is lost for it
#   csv_write "$CSV" <rows        through a file beside it, renamed into place; exit 1 if a write fails
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
