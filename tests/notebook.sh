#!/bin/sh
# tests/notebook.sh [DIR]: run course.ipynb's code cells in order, as Colab would, without Jupyter:
# a %%bash cell with bash (-e and pipefail: any failing command fails it), %cd with cd, %%writefile by
# writing its file, and a display cell by checking that every image it shows exists. The course is
# first copied (tracked and new files) into DIR/course, where the notebook's clone cell finds it and
# keeps it, so the working tree is left alone. Needs python3 (to read the notebook's JSON) and a GPU. Exit 0 when every cell succeeded.
set -u
dir=${1:-$(mktemp -d)}
repo=$(pwd)
mkdir -p "$dir/course" "$dir/cells"
git ls-files -co --exclude-standard | grep -v '^\.dev/' | tar -cf - -T - | tar -xf - -C "$dir/course"
# One file a code cell: NN.bash (a %%bash cell, the magic line removed), NN.cd (the folder), NN.show
# (the images, one a line), NN.write (the path, then the text) or NN.unknown.
python3 - "$repo/course.ipynb" "$dir/cells" <<'PY' || exit 1
import json, re, sys
cells = [c for c in json.load(open(sys.argv[1]))["cells"] if c["cell_type"] == "code"]
for i, cell in enumerate(cells):
    text = "".join(cell["source"])
    first, _, rest = text.partition("\n")
    if first.strip() == "%%bash":
        kind, body = "bash", rest
    elif first.startswith("%%writefile "):  # NN.write: the path on the first line, then the text
        kind, body = "write", first[len("%%writefile "):].strip() + "\n" + rest
    elif first.startswith("%cd ") and not rest.strip():
        kind, body = "cd", first[4:].strip() + "\n"
    elif "display(Image(" in text:
        kind, body = "show", "".join(p + "\n" for p in re.findall(r'Image\("([^"]+)"\)', text))
    else:
        kind, body = "unknown", text
    open(f"{sys.argv[2]}/{i:02d}.{kind}", "w").write(body)
PY
cd "$dir"
export NOTEBOOK_RUN=1  # a make test inside the notebook does not run the notebook again
status=0
for cell in "$dir"/cells/*; do
    name=$(basename "$cell")
    start=$(date +%s)
    case $name in
        *.bash) bash -e -o pipefail "$cell" >"$cell.log" 2>&1 ;;
        *.cd) cd "$(cat "$cell")" >"$cell.log" 2>&1 ;;
        *.write) tail -n +2 "$cell" >"$(head -n 1 "$cell")" 2>"$cell.log" ;;
        *.show) missing=0
                while read -r png; do [ -s "$png" ] || { echo "missing: $png"; missing=1; }; done <"$cell" >"$cell.log"
                [ $missing = 0 ] ;;
        *) echo "a cell this runner does not know (use %%bash, %%writefile, %cd or display(Image(...)))" >"$cell.log"; false ;;
    esac
    code=$?
    echo "cell $name: exit $code in $(( $(date +%s) - start )) s"
    [ $code = 0 ] || { tail -n 15 "$cell.log"; status=1; }
done
exit $status
