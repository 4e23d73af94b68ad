#!/bin/sh
# course.ipynb, the Colab notebook, stays valid and true: it is JSON that asks for a GPU runtime, every
# code cell is one tests/notebook.sh can run, every program it runs is one the course builds, every image
# it shows is committed, and its repository is the README badge's. On a GPU machine tests/notebook.sh then
# runs all its cells in order (a few minutes). python3 reads the JSON (Colab runs Python anyway).
. tests/tap.sh
command -v python3 >/dev/null || skip_all "python3 is not installed (it reads the notebook's JSON)"
python3 - course.ipynb "${PROGRAMS:-}" >"${TMPDIR:-/tmp}/notebook.$$" 2>&1 <<'PY'
import json, os, re, sys
nb = json.load(open(sys.argv[1]))
programs = set(sys.argv[2].split())
meta = nb.get("metadata", {})
print("json", nb.get("nbformat") == 4 and "cells" in nb)
print("gpu", meta.get("accelerator") == "GPU" and "gpuType" in meta.get("colab", {}))
bad, runs, shows, repos, lab_cells = [], [], [], [], []
for cell in nb["cells"]:
    text = "".join(cell["source"])
    if cell["cell_type"] != "code":
        continue
    if text.startswith("%%bash\n"):
        runs += re.findall(r"\./(ch\d_[a-z_]+/[a-z_0-9]+)", text)
        repos += re.findall(r"github\.com/([^ ]+?)\.git", text)
    elif re.fullmatch(r"%cd [^\n]+\n?", text):
        pass
    elif text.startswith("%%writefile "):  # a lab's file, as the student gets it
        lab_cells.append(text.partition("\n")[2])
    elif "display(Image(" in text:
        shows += re.findall(r'Image\("([^"]+)"\)', text)
    else:
        bad.append(text.splitlines()[0])
print("cells", not bad, bad)
unknown = [p for p in runs if programs and p not in programs and p != "ch3_streams_events/multi_gpu"]
print("programs", bool(runs) and not unknown, unknown)
missing = [p for p in shows if not os.path.isfile(p) and not p.startswith("output/")]  # output/: made by a cell
print("images", bool(shows) and not missing, missing)
readme = open("README.md").read()
labs = [t for t in lab_cells if t != open("labs/ch1_map.cu").read()]
print("labs", len(lab_cells) == 1 and not labs, "a %%writefile cell differs from labs/ch1_map.cu" if labs else "")
print("badge", len(set(repos)) == 1 and f"colab.research.google.com/github/{repos[0]}/blob/main/course.ipynb" in readme, repos)
PY
result=${TMPDIR:-/tmp}/notebook.$$
for what in json gpu cells programs images labs badge; do
    grep -q "^$what True" "$result"
    ok $? "course.ipynb: $what" "$(grep "^$what" "$result"; grep -v '^[a-z]* \(True\|False\)' "$result")"
done
rm -f "$result"
if have_gpu && [ -z "${NOTEBOOK_RUN:-}" ]; then
    out=$(mktemp -d)
    sh tests/notebook.sh "$out" >"$out/log" 2>&1
    ok $? "course.ipynb runs, cell after cell, on this GPU" "$(tail -n 30 "$out/log")"
    rm -rf "$out"
elif [ -n "${NOTEBOOK_RUN:-}" ]; then
    skip "course.ipynb runs, cell after cell, on this GPU" "inside a run of the notebook"
else
    skip "course.ipynb runs, cell after cell, on this GPU" "no GPU"
fi
done_testing
