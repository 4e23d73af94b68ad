#!/bin/sh
# tests/notebook.sh [DIR [FIRST [LAST]]]: run course.ipynb's code cells in order, as Colab would, without
# Jupyter. Every /content in a cell is read as DIR, Colab's working folder, so the course lands in DIR/course
# and the working tree is left alone. How it gets there, COURSE_FROM= (no network either way):
#   copy     (the default) the tracked and new files are copied there first, and the first cell keeps them;
#   clone    the first cell clones a bare repository of this checkout's HEAD (git clone --bare, in
#            DIR/course.git), its form's address replaced by file://DIR/course.git, as it would clone GitHub;
#   upload   the first cell unpacks the hand-out archive (labs/handout.sh, into DIR/labs-handout.tar.gz),
#            its form's address emptied, COURSE_ARCHIVE standing in for Colab's upload.
# A %%bash cell runs as IPython runs it, bash reading the cell on its standard input (the cell's own
# `set -eo pipefail` makes a failing command fail it); %cd is cd, %%writefile writes its file, the form
# cell (#@param) runs in python3, outside Colab, and a display cell passes when every image it shows exists.
#
# DIR/notebook.log is the run, for committing: when, on which GPU, driver and CUDA, under which
# emulation and ARCH, from which commit; then for each code cell its number, kind and first line, its
# exit status and seconds, and its output. FIRST (a code cell's number) resumes a run that was cut
# short: the course in DIR is kept, the %cd cells before FIRST are replayed, and the log goes on (the
# notebook must be the one the log names). LAST (a code cell's number) stops after that cell:
# tests/notebook.t runs the first two, the course fetched and entered, on a machine without a GPU.
# EMULATE=t4 (or gtx1650) runs the cells on a small GPU emulated through MPS (tests/mps.sh, as make
# small-gpu does); ARCH=75 then builds the notebook's copy for a T4's architecture.
# Needs python3 (to read the notebook's JSON), git for COURSE_FROM=clone and upload, and a GPU past the first
# cells. Exit 0 when every cell run succeeded.
set -u
dir=${1:-$(mktemp -d)}
first=${2:-1}
last=${3:-}
repo=$(pwd)
case $dir in /*) ;; *) dir="$repo/$dir" ;; esac
case $first$last in
    ''|*[!0-9]*) echo "tests/notebook.sh: FIRST and LAST must be code cells' numbers, not '$first' '$last'" >&2
                 exit 2 ;;
esac
from=${COURSE_FROM:-copy}
log="$dir/notebook.log"
unset COURSE_ARCHIVE FORM_URL
if [ "$first" -le 1 ]; then
    rm -rf "$dir/course" "$dir/course.git" "$dir/labs-handout.tar.gz" "$dir/cells" "$log"
    mkdir -p "$dir/cells" || exit 1
    case $from in
        copy) mkdir -p "$dir/course" &&
              git ls-files -co --exclude-standard | grep -v '^\.dev/' | tar -cf - -T - | tar -xf - -C "$dir/course" ;;
        clone) git clone -q --bare "$repo" "$dir/course.git" && FORM_URL="file://$dir/course.git" ;;
        upload) sh labs/handout.sh "$dir/labs-handout.tar.gz" >/dev/null && FORM_URL="" &&
                export COURSE_ARCHIVE="$dir/labs-handout.tar.gz" ;;
        *) echo "tests/notebook.sh: COURSE_FROM=$from: copy, clone or upload" >&2; exit 2 ;;
    esac || { echo "tests/notebook.sh: COURSE_FROM=$from: the course could not be made ready" >&2; exit 1; }
elif [ ! -d "$dir/course" ] || ! grep -q "^# course.ipynb: $(git hash-object course.ipynb)$" "$log" 2>/dev/null; then
    echo "tests/notebook.sh: $dir holds no run of this course.ipynb to resume: run from the first cell" >&2
    exit 2
fi

# The emulated card, set before any cell runs; the SM count from device_query, built as the working
# tree's ARCH is (not the notebook's).
if [ -n "${EMULATE:-}" ]; then
    . "$repo/tests/mps.sh"
    command -v nvidia-cuda-mps-control >/dev/null ||
        { echo "EMULATE=$EMULATE needs MPS (nvidia-cuda-mps-control)" >&2; exit 1; }
    env -u ARCH make -s ch1_embarrassing/device_query >/dev/null || exit 1
    sms=$(./ch1_embarrassing/device_query | sed -n 's/^streaming multiprocessors (SMs) *//p')
    [ -n "$sms" ] || { echo "tests/notebook.sh: device_query failed" >&2; exit 1; }
    mps_emulate "$EMULATE" "$sms" || { echo "EMULATE=$EMULATE: gtx1650, t4 or full" >&2; exit 2; }
    mps=$(mktemp -d)  # short: the daemon's socket path has a length limit
    trap 'mps_stop; rm -rf "$mps"' EXIT
    trap 'exit 130' INT TERM
    mps_start "$mps"
    emulation="$EMULATE through MPS: ${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-100}% of $sms SMs,"
    emulation="$emulation memory ${CUDA_MPS_PINNED_DEVICE_MEM_LIMIT:-not capped}"
fi

# One file a code cell, numbered from 1: NN.bash (a %%bash cell, the magic line removed), NN.cd (the
# folder), NN.show (the images, one a line), NN.write (the path, then the text), NN.python (the form
# cell, its address FORM_URL where that is set) or NN.unknown; and NN.title, the line the log names it by.
rm -rf "$dir/cells" && mkdir -p "$dir/cells"
python3 - "$repo/course.ipynb" "$dir/cells" "$dir" ${FORM_URL+"$FORM_URL"} <<'PY' || exit 1
import json, re, sys
cells = [c for c in json.load(open(sys.argv[1], encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
form = re.compile(r'^(COURSE_URL = )"[^"\\]*"(  #@param \{type:"string"\})$', re.M)  # tests/notebook.py's FORM
for i, cell in enumerate(cells, 1):
    text = "".join(cell["source"])
    first, _, rest = text.partition("\n")
    first = first.replace("/content", sys.argv[3])  # Colab's working folder is DIR here
    if not first.startswith("%%writefile "):         # a file's text is written as it is
        rest = rest.replace("/content", sys.argv[3])
    if first.strip() == "%%bash":
        kind, body = "bash", rest
    elif first.startswith("%%writefile "):  # NN.write: the path on the first line, then the text
        kind, body = "write", first[len("%%writefile "):].strip() + "\n" + rest
    elif first.startswith("%cd ") and not rest.strip():
        kind, body = "cd", first[4:].strip() + "\n"
    elif "display(Image(" in text:
        kind, body = "show", "".join(p + "\n" for p in re.findall(r'Image\("([^"]+)"\)', text))
    elif form.search(text):
        kind, body = "python", first + "\n" + rest
        if len(sys.argv) > 4:  # the address to fetch the course from instead
            body = form.sub(lambda m: m.group(1) + json.dumps(sys.argv[4]) + m.group(2), body)
    else:
        kind, body = "unknown", text
    open(f"{sys.argv[2]}/{i:02d}.{kind}", "w", encoding="utf-8").write(body)
    # NN.title: what the log names the cell by, its first line after the magic and `set -eo pipefail`
    title = [line for line in text.splitlines() if line.strip() not in ("%%bash", "set -eo pipefail")][:1]
    open(f"{sys.argv[2]}/{i:02d}.title", "w", encoding="utf-8").write((title or [first])[0] + "\n")
PY
cells=$(ls "$dir/cells" | grep -cv '\.title$')
[ -n "$last" ] && [ "$last" -lt "$cells" ] || last=$cells

if [ "$first" -le 1 ]; then
    gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 2>/dev/null |
          sed 's/, / (driver /; s/$/)/')
    dirty=$(git status --porcelain --untracked-files=no)
    {
        echo "# course.ipynb, run by tests/notebook.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
        echo "# GPU: $gpu"
        echo "# CUDA: $(nvcc --version 2>/dev/null | sed -n 's/^Cuda compilation tools, //p')"
        echo "# emulation: ${emulation:-none}"
        echo "# ARCH: ${ARCH:-this GPU's (the Makefile's default)}"
        case $from in
            copy) echo "# course: copied into place (COURSE_FROM=copy), the first cell keeping it" ;;
            clone) echo "# course: cloned by the first cell from a bare repository of HEAD (COURSE_FROM=clone)" ;;
            upload) echo "# course: unpacked by the first cell from labs/handout.sh's archive (COURSE_FROM=upload)" ;;
        esac
        echo "# course.ipynb: $(git hash-object course.ipynb)"
        echo "# commit: $(git rev-parse --short HEAD)${dirty:+, with uncommitted changes}"
    } >"$log"
else
    echo "# resumed at code cell $first, $(date -u +%Y-%m-%dT%H:%MZ)" >>"$log"
fi

cd "$dir" || exit 1
export NOTEBOOK_RUN=1  # a make test inside the notebook does not run the notebook again
status=0
total_start=$(date +%s)
for cell in $(ls "$dir"/cells/* | grep -v '\.title$'); do
    name=$(basename "$cell")
    number=$(echo "${name%.*}" | sed 's/^0*//')
    kind=${name#*.}
    if [ "$number" -lt "$first" ]; then  # resuming: only the folder changes matter
        [ "$kind" = cd ] && cd "$(cat "$cell")"
        continue
    fi
    [ "$number" -le "$last" ] || break
    start=$(date +%s)
    case $kind in
        bash) bash <"$cell" >"$cell.log" 2>&1 ;;
        python) python3 "$cell" >"$cell.log" 2>&1 ;;
        cd) cd "$(cat "$cell")" >"$cell.log" 2>&1 && pwd >"$cell.log" ;;
        write) tail -n +2 "$cell" >"$(head -n 1 "$cell")" 2>"$cell.log" &&
                   echo "Writing $(head -n 1 "$cell")" >"$cell.log" ;;
        show) missing=0
              while read -r png; do
                  if [ -s "$png" ]; then echo "shown: $png"; else echo "missing: $png"; missing=1; fi
              done <"$cell" >"$cell.log"
              [ $missing = 0 ] ;;
        *) echo "a cell this runner does not know (use %%bash, %%writefile, %cd, display(Image(...)) or the form)" \
               >"$cell.log"
           false ;;
    esac
    code=$?
    seconds=$(( $(date +%s) - start ))
    {
        echo
        title=$(sed "s|$dir|/content|g" "${cell%.*}.title")
        echo "== code cell $number of $cells ($kind): exit $code in $seconds s: $title"
        sed "s|$dir|/content|g" "$cell.log"
    } >>"$log"
    echo "cell $number: exit $code in $seconds s"
    [ $code = 0 ] || { tail -n 15 "$cell.log"; status=1; }
done
echo >>"$log"
[ $status = 0 ] && outcome='every one exit 0' || outcome='some failed'
echo "# cells $first to $last: $outcome, $(( $(date +%s) - total_start )) s" >>"$log"
echo "the run's log: $log"
exit $status
